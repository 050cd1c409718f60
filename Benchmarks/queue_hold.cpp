// The event queue's hold model in C++, for `drivesim bench` to compare with.
//
// The same loop as BenchCommand.holdModel: `pending` events scheduled at
// 0...1000 ms with phase i & 3, then `operations` times: pop the earliest,
// push it again 1...1000 ms later in the same phase. Entries are ordered by
// (time, phase, sequence), the sequence being scheduling order, packed into
// one 128-bit key exactly as EventQueue.Entry packs it, and kept in a
// std::priority_queue. The increments come from the same SplitMix64 with the
// same seed and range mapping, so both loops pop the same events in the same
// order: the checksum (a hash of the popped events, in order) must match.
//
// Build: c++ -O2 -std=c++17 queue_hold.cpp -o queue_hold
// Run:   queue_hold PENDING OPERATIONS
// Prints: SECONDS CHECKSUM
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <vector>

namespace {

struct SplitMix64 {
    uint64_t state;
    uint64_t next() {
        state += 0x9E3779B97F4A7C15ull;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Lemire's multiply-shift with rejection, as SplitMix64.below.
    uint64_t below(uint64_t bound) {
        for (;;) {
            unsigned __int128 product = (unsigned __int128)next() * bound;
            if ((uint64_t)product >= (0 - bound) % bound) return (uint64_t)(product >> 64);
        }
    }
    // A number in low...high, inclusive, as SplitMix64.int(in:).
    int64_t in(int64_t low, int64_t high) { return low + (int64_t)below((uint64_t)(high - low) + 1); }
};

struct Entry {
    // The time (sign bit flipped) in the high word; the phase in the top byte
    // of the low word, the sequence below it.
    unsigned __int128 key;
    int64_t event;

    Entry(int64_t time, uint8_t phase, uint64_t sequence, int64_t event)
        : key((unsigned __int128)((uint64_t)time ^ (1ull << 63)) << 64 | ((uint64_t)phase << 56 | sequence)),
          event(event) {}
    int64_t time() const { return (int64_t)((uint64_t)(key >> 64) ^ (1ull << 63)); }
    uint8_t phase() const { return (uint8_t)(key >> 56); }
};

// std::priority_queue is a max-heap: "later" puts the earliest on top.
struct Later {
    bool operator()(const Entry& a, const Entry& b) const { return a.key > b.key; }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: queue_hold PENDING OPERATIONS\n");
        return 2;
    }
    const long pending = std::atol(argv[1]), operations = std::atol(argv[2]);
    SplitMix64 random{42};
    std::vector<Entry> storage;
    storage.reserve(pending + 1);
    std::priority_queue<Entry, std::vector<Entry>, Later> queue(Later(), std::move(storage));
    uint64_t sequence = 0;
    for (long i = 0; i < pending; ++i) queue.push(Entry(random.in(0, 1000), uint8_t(i & 3), sequence++, i));
    uint64_t checksum = 0;
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < operations; ++i) {
        const Entry entry = queue.top();
        queue.pop();
        checksum = checksum * 31 + uint64_t(entry.event);
        queue.push(Entry(entry.time() + random.in(1, 1000), entry.phase(), sequence++, entry.event));
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if ((long)queue.size() != pending) return 1;
    std::printf("%.9f %llu\n", elapsed.count(), (unsigned long long)checksum);
    return 0;
}
