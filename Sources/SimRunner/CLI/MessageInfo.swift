/// One error's message and exit code, in the spirit of swift-argument-parser's
/// `MessageInfo`: the one place that words errors.
public struct MessageInfo: Sendable, Equatable {
    /// What goes to standard error, ending in a newline.
    public var message: String
    /// The process's exit code: always 2 for a `DrivesimError` (SPEC 8).
    public var exitCode: Int32

    /// The message for `error`, raised by `command` (for the usage lines), if known.
    public init(_ error: any Error, command: String? = nil) {
        exitCode = 2
        guard let error = error as? DrivesimError else {
            message = "Error: \(error)\n"
            return
        }
        message = "Error: \(error.reason)\n"
        if case .usage(let problem) = error {
            if case .unknownCommand = problem {
                message += "\(Drivesim.usage)\nSee 'drivesim --help'.\n"
            } else if case .unknownHelpTopic = problem {
                message += "\(Drivesim.usage)\nSee 'drivesim --help'.\n"
            } else if let command, let type = Drivesim.commands.first(where: { $0.name == command }) {
                message += "\(type.usage)\nSee 'drivesim \(command) --help'.\n"
            } else {
                message += "See 'drivesim --help'.\n"
            }
        }
    }
}
