import Foundation

/// The HTML page's style sheet and script, kept as files in `Resources/`
/// (SwiftPM copies them beside the built binary; `Bundle.module` finds them
/// from any working directory), read once per process.
enum PageResource {
    /// The text of `Resources/NAME.EXT`, or, if the bundle lacks it (a binary
    /// copied without its `drivesim_Review.resources` folder), a comment that says so.
    static func text(of name: String, _ ext: String) -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext),
            let data = try? Data(contentsOf: url)
        else {
            return
                "/* drivesim: \(name).\(ext) is missing from the drivesim_Review.resources folder beside the binary */\n"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
