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
        // The heap grows 64 MiB past each request (-2 is M_TOP_PAD), the first
        // time now; that range is advised for transparent huge pages, so a long
        // drive's arrays are faulted in 2 MiB at a time rather than 4 KiB (a
        // 12-hour drive's `run`: about 5,400 page faults fewer, a tenth less
        // CPU). Only memory between the probe block and the heap's end is
        // advised; where huge pages are off, nothing changes.
        _ = mallopt(-2, 64 << 20)
        if let probe = malloc(1 << 20) {
            let huge = 2 << 20
            let start = (Int(bitPattern: probe) + huge - 1) & -huge
            let end = Int(bitPattern: sbrk(0)) & -huge
            if end > start, end - start <= 128 << 20, let range = UnsafeMutableRawPointer(bitPattern: start) {
                _ = madvise(range, end - start, MADV_HUGEPAGE)
            }
            free(probe)
        }
    }
#endif

// The process's own console: the command's big values may be left to `exit` (see `ProcessEnd`).
var console = Console.standard
exit(Drivesim.main(Array(CommandLine.arguments.dropFirst()), console: &console))
