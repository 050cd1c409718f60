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

var console = Console.standard
exit(Drivesim.main(Array(CommandLine.arguments.dropFirst()), console: &console))
