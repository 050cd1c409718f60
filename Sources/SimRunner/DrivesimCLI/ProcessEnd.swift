/// What a command leaves to the end of the `drivesim` process instead of
/// freeing it: a long drive's scenario and verdict are tens of thousands of
/// arrays and strings, and freeing them one by one just before `exit`
/// (which returns all the process's memory at once) only costs time.
///
/// Only the executable's console says the process ends after its command
/// (`Console.processEndsAfterCommand`); in tests, which run many commands in
/// one process, everything is freed as usual.
package enum ProcessEnd {
    /// Keeps `value` alive to the process's end when it ends after the
    /// command (one reference, never released); otherwise does nothing.
    package static func keep<T>(_ value: T, _ console: Console) {
        guard console.processEndsAfterCommand else { return }
        _ = Unmanaged.passRetained(Kept(value))
    }

    /// A value held by a reference, for `Unmanaged`.
    private final class Kept<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
