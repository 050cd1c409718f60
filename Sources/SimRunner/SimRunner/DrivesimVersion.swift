/// The version of the drivesim library and command line, in one place
/// (`drivesim --version` prints it; CHANGELOG.md lists what each one changed).
public enum DrivesimVersion {
    /// The current version, semantic: `major.minor.patch`.
    public static let current = "0.9.0"
}
