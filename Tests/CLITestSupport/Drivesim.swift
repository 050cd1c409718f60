import DrivesimCLI
import TestSupport

extension Fixtures {
    /// Runs the command line and returns its exit code and what it wrote.
    public static func drivesim(_ arguments: String...) -> (code: Int32, stdout: String, stderr: String) {
        drivesim(arguments)
    }

    /// The same with the arguments in a list.
    public static func drivesim(_ arguments: [String]) -> (code: Int32, stdout: String, stderr: String) {
        var console = Console.captured
        let code = Drivesim.main(arguments, console: &console)
        return (code, console.stdout, console.stderr)
    }
}
