import SimRunner

#if canImport(Glibc)
import Glibc
#endif

var console = Console.standard
exit(Drivesim.main(Array(CommandLine.arguments.dropFirst()), console: &console))
