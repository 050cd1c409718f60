/// `drivesim check PATH...`: every scenario under the paths, one result line
/// each, then `N passed, N failed`. Keeps going past files it cannot use.
enum CheckCommand: Command {
    static let name = "check"
    static let abstract = "Run every scenario under the paths and report which passed."
    static let usage = "USAGE: drivesim check <path> ..."
    static var help: String {
        """
        OVERVIEW: \(abstract)

        \(usage)

        ARGUMENTS:
          <path>                  Scenario files, or folders searched recursively for *.json.

        OPTIONS:
          -h, --help              Show help information.

        Prints one line per scenario (PASS, FAIL or ERROR) and last 'N passed, N failed';
        details of each failure go to standard error. A file that cannot be used is
        reported with its reason, counted as failed, and the rest still run.

        EXIT CODES: 0 all passed, 1 any failed, 2 any file could not be used.

        """
    }

    static func run(_ arguments: [String], console: inout Console) throws -> Int32 {
        let args = try Arguments(arguments, options: [], flags: [])
        guard !args.positional.isEmpty else { throw UsageError("missing path") }
        let files = ScenarioFiles.discover(args.positional)
        guard !files.isEmpty else { throw UsageError("no scenario files under \(args.positional.joined(separator: " "))") }
        var passed = 0, failed = 0, unusable = 0
        for (index, file) in files.enumerated() {
            if console.errIsTerminal { console.err("\r[\(index + 1)/\(files.count)] ") }
            switch ScenarioFiles.load(file) {
            case .failure(let failure):
                unusable += 1
                console.out("ERROR \(file)\n")
                console.err("Error: \(failure)\n")
            case .success(let scenario):
                let verdict = Verdict(scenario)
                if verdict.passed {
                    passed += 1
                    console.out("PASS  \(file)\n")
                } else {
                    failed += 1
                    console.out("FAIL  \(file)\n")
                    console.err("\(file): \(scenario.name)\n" + verdict.report)
                }
            }
        }
        if console.errIsTerminal { console.err("\r") }
        console.out("\(passed) passed, \(failed + unusable) failed\n")
        return unusable > 0 ? 2 : (failed > 0 ? 1 : 0)
    }
}
