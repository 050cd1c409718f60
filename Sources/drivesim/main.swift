import DrivesimCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var console = Console.standard
exit(Drivesim.main(Array(CommandLine.arguments.dropFirst()), console: &console))
