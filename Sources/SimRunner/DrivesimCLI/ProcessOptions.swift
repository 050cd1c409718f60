import ExternalProcess

/// `--arbiter` and `--guidance` on the command line: each option's process
/// started, or a usage error (exit 2) naming the command and the reason.
extension ArbiterProcess {
    /// Starts `--arbiter`'s process for a command, or throws exit 2 with the command and the reason.
    static func launch(_ args: Arguments) throws(DrivesimError) -> ArbiterProcess? {
        guard let command = args.value("--arbiter") else { return nil }
        let seconds = args.integer("--arbiter-timeout") ?? 5
        let process = ArbiterProcess(command: command, timeoutMs: seconds * 1000)
        do { try process.start() } catch { throw DrivesimError.arbiterProcess(command: command, error) }
        return process
    }
}

extension GuidanceProcess {
    /// Starts `--guidance`'s process, or throws exit 2 with the command and the reason.
    static func launch(_ args: Arguments) throws(DrivesimError) -> GuidanceProcess? {
        guard let command = args.value("--guidance") else { return nil }
        let seconds = args.integer("--guidance-timeout") ?? 5
        let process = GuidanceProcess(command: command, timeoutMs: seconds * 1000)
        do { try process.channel.start() } catch {
            throw DrivesimError.guidanceProcess(command: command, error)
        }
        return process
    }
}
