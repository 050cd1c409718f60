import DrivesimCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A standard descriptor the shell closed (`>&-`) is taken by /dev/null
// opened read-only: a file the program opens later cannot land on it, and
// every write to it still fails (EBADF), which `Drivesim.main` reports.
for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
    let opened = open("/dev/null", O_RDONLY)
    if opened >= 0, opened != fd {
        dup2(opened, fd)
        close(opened)
    }
}

#if canImport(Glibc)
// One short-lived process: large arrays come from the heap rather than from
// mappings of their own, and memory it frees stays for its own later use
// instead of going back to the kernel, which would zero every page again on
// its next use (a 12-hour drive's `run` spends a tenth less CPU). `mallopt`
// is looked up by name, as Swift's Glibc module leaves out <malloc.h>;
// -3 and -1 are glibc's M_MMAP_THRESHOLD and M_TRIM_THRESHOLD.
if let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") {
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    _ = mallopt(-3, 32 << 20)
    _ = mallopt(-1, Int32.max)
}
#endif

// The command's big values may be left to `exit` (see `ProcessEnd`).
ProcessEnd.exitsAfterCommand = true
var console = Console.standard
exit(Drivesim.main(Array(CommandLine.arguments.dropFirst()), console: &console))
