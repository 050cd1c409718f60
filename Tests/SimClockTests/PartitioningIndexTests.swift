import SimClock
import Testing

/// The package's one binary search.
@Suite struct PartitioningIndexTests {
    @Test func itFindsTheFirstElementOfTheSecondPartAtEverySplit() {
        for count in 0...9 {
            for split in 0...count {
                let list = (0..<count).map { $0 >= split }
                #expect(list.partitioningIndex { $0 } == split, "count \(count), split \(split)")
            }
        }
    }

    @Test func aSliceAnswersWithItsOwnIndices() {
        let times = [10, 20, 20, 30, 40]
        #expect(times[1...].partitioningIndex { $0 > 20 } == 3)
        #expect(times[3...].partitioningIndex { $0 > 99 } == 5)
        #expect(times.partitioningIndex { $0 >= 20 } == 1)
    }
}
