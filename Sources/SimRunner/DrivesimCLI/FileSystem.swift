#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, named apart from `FileSystem.read`.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
/// `write(2)`, named apart from `FileSystem.write`.
func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }

/// The file system, through POSIX calls, so every failure keeps its `errno`
/// (Foundation's `contents(atPath:)` answers nil for all of them).
enum FileSystem {
    /// The largest scenario or GPX file read: 64 MiB (a 24-hour drive is about 10 MiB).
    static let readLimit = 64 << 20

    /// The whole file at `path`, read once into one buffer. A regular file
    /// over `limit` bytes is refused from `fstat` before reading; anything
    /// else (a pipe) is read up to `limit` bytes and refused past them.
    static func read(_ path: String, limit: Int = readLimit) throws(DrivesimError) -> [UInt8] {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .unreadable(file: path, FileProblem(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(file: path, FileProblem(errno: errno)) }
        if isFolder(info) { throw .unreadable(file: path, .isFolder) }
        let regular = isRegular(info)
        if regular, Int(info.st_size) > limit { throw .unreadable(file: path, .tooLarge(limit: limit)) }
        return try readAll(fd, name: path, limit: limit, size: regular ? Int(info.st_size) : 0)
    }

    /// How errors name standard input (`drivesim run -`).
    static let standardInputName = "<stdin>"

    /// Standard input (or `fd`, for tests) read to its end, up to `limit`
    /// bytes (refused past them); errors name it `<stdin>`.
    static func readStandardInput(_ fd: Int32 = 0, limit: Int = readLimit) throws(DrivesimError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(file: standardInputName, FileProblem(errno: errno)) }
        if isFolder(info) { throw .unreadable(file: standardInputName, .isFolder) }
        let regular = isRegular(info)
        if regular, Int(info.st_size) > limit { throw .unreadable(file: standardInputName, .tooLarge(limit: limit)) }
        return try readAll(fd, name: standardInputName, limit: limit, size: regular ? Int(info.st_size) : 0)
    }

    /// Everything left to read from `fd`, up to `limit` bytes; `size` the
    /// expected size (a regular file's), 0 if unknown. Errors name `name`.
    private static func readAll(_ fd: Int32, name: String, limit: Int, size: Int) throws(DrivesimError) -> [UInt8] {
        var bytes: [UInt8] = []
        // A regular file is read straight into one array of its size; what
        // is left (a file that grew, or no size known) comes through a 64 KiB chunk.
        if size > 0 {
            var failure: Int32? = nil
            bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                while count < size {
                    let got = retryingOnInterrupt { posixRead(fd, buffer.baseAddress! + count, size - count) }
                    if got < 0 {
                        failure = errno
                        return
                    }
                    if got == 0 { return }
                    count += got
                }
            }
            if let failure { throw .unreadable(file: name, FileProblem(errno: failure)) }
            if bytes.count < size { return bytes }
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { posixRead(fd, buffer.baseAddress!, buffer.count) }
            }
            if got < 0 { throw .unreadable(file: name, FileProblem(errno: errno)) }
            if got == 0 { break }
            if bytes.count + got > limit { throw .unreadable(file: name, .tooLarge(limit: limit)) }
            bytes.append(contentsOf: chunk[..<got])
        }
        return bytes
    }

    /// Writes `bytes` to `path`. A regular file (or a new one) is replaced
    /// atomically: a temporary file created exclusively beside it with a
    /// random name, then a rename, so a reader or a second writer never sees
    /// half a file and each writer's rename is whole. A symbolic link is
    /// followed (its target is written, the link stays). What is not a
    /// regular file (`/dev/null`, a FIFO, a terminal) is written into, never
    /// replaced. On any error the temporary file is removed and the error
    /// names the cause. `write` is the system call, replaceable by tests.
    static func write(
        _ bytes: [UInt8], to path: String,
        using write: (Int32, UnsafeRawPointer, Int) -> Int = posixWrite
    ) throws(DrivesimError) {
        try self.write(to: path, using: write) { emit in bytes.withUnsafeBufferPointer(emit) }
    }

    /// The same for the bytes that `produce` hands over in chunks, each
    /// written as it comes (into the temporary file, for a regular one): a
    /// long timeline is never held whole. After a failed write the rest is
    /// made but not written, and the first failure is told.
    static func write(
        to path: String, using write: (Int32, UnsafeRawPointer, Int) -> Int = posixWrite,
        chunks produce: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
    ) throws(DrivesimError) {
        /// Writes every chunk to `fd`; the first problem, if any.
        func writeChunks(to fd: Int32) -> WriteProblem? {
            withoutActuallyEscaping(write) { write in
                var problem: WriteProblem? = nil
                produce { chunk in
                    if problem == nil { problem = writeAll(UnsafeRawBufferPointer(chunk), to: fd, using: write) }
                }
                return problem
            }
        }
        guard !path.isEmpty else { throw .cannotWrite(path: path, .emptyPath) }
        // `stat` follows every link, even `/proc`'s to a pipe (`/dev/stdout`:
        // `pipe:[123]`, no path); the links are resolved by name only for the
        // file a temporary one is put beside.
        var info = stat()
        let exists = stat(path, &info) == 0
        if !exists, errno != ENOENT { throw .cannotWrite(path: path, WriteProblem(errno: errno)) }
        let target = exists && !isRegular(info) ? path : try resolveLinks(path)
        if exists, isFolder(info) { throw .cannotWrite(path: path, .isFolder) }
        // The shell's `>` refuses a file whose mode bits do not let you write
        // it; so does `--out`, root or not (a rename would bypass the check).
        if exists, isRegular(info), let refused = refusal(info) { throw .cannotWrite(path: path, refused) }
        if exists, !isRegular(info) {
            let fd = retryingOnInterrupt { open(target, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
            guard fd >= 0 else { throw .cannotWrite(path: path, WriteProblem(errno: errno)) }
            if let problem = writeChunks(to: fd) {
                close(fd)
                throw .cannotWrite(path: path, problem)
            }
            if close(fd) != 0, errno != EINTR { throw .cannotWrite(path: path, WriteProblem(errno: errno)) }
            return
        }
        let (folder, name) = split(target)
        var fd: Int32 = -1
        var temporary = ""
        for _ in 0..<16 {
            temporary = folder + "/." + name + "." + randomSuffix() + ".tmp"
            fd = retryingOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666) }
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            let code = errno
            // The folder is there (the target was resolved in it): ENOENT is the folder refusing new files (`/proc`).
            if code == ENOENT, isFolder(path: folder) {
                throw .cannotWrite(path: path, .cannotCreateIn(folder: folder))
            }
            throw .cannotWrite(path: path, WriteProblem(errno: code))
        }
        var problem = writeChunks(to: fd)
        // A replaced file keeps its permissions.
        if problem == nil, exists, fchmod(fd, info.st_mode & 0o7777) != 0 { problem = WriteProblem(errno: errno) }
        if close(fd) != 0, problem == nil, errno != EINTR { problem = WriteProblem(errno: errno) }
        if problem == nil, rename(temporary, target) != 0 { problem = WriteProblem(errno: errno) }
        if let problem {
            unlink(temporary)
            throw .cannotWrite(path: path, problem)
        }
    }

    /// Why the mode bits of the file `info` describes do not let this
    /// process write it, or nil if they do. The bits read are those of the
    /// class you are in, as `open` picks them: the owner's if your effective
    /// uid owns it, else the group's if its group is your effective or a
    /// supplementary group, else the others'. Root is judged the same way
    /// (the kernel would let it write anything; `--out` does not replace
    /// what the bits protect).
    static func refusal(_ info: stat) -> WriteProblem? {
        let writer: WriteProblem.Writer
        if info.st_uid == geteuid() {
            writer = .owner
        } else if info.st_gid == getegid() || supplementaryGroups().contains(info.st_gid) {
            writer = .group
        } else {
            writer = .others
        }
        let bit: mode_t =
            switch writer {
            case .owner: S_IWUSR
            case .group: S_IWGRP
            case .others: S_IWOTH
            }
        return info.st_mode & bit != 0 ? nil : .readOnlyFile(mode: UInt32(info.st_mode & 0o777), for: writer)
    }

    /// The process's supplementary group ids (`getgroups`).
    static func supplementaryGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return got > 0 ? Array(groups.prefix(Int(got))) : []
    }

    /// The identity (device and inode) of the file `path` names, symbolic
    /// links followed; nil if there is none (yet).
    static func identity(ofFile path: String) -> Identity? {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return nil }
        return Identity(info)
    }

    /// Refuses an output `out` that is one of the command's `inputs` (the
    /// same file by device and inode, whatever the spelling or the links on
    /// the way), before anything is read or run: the write would replace
    /// what the user gave. `-` (standard input) is no file.
    static func refuseOverwriting(inputs: [String], with out: String?) throws(DrivesimError) {
        guard let out, let target = identity(ofFile: out) else { return }
        for input in inputs where input != "-" && identity(ofFile: input) == target {
            throw .cannotWrite(path: out, .isAnInput(input))
        }
    }

    /// Creates the folder `path` and any folders above it that are missing;
    /// returns those it created, outermost first.
    @discardableResult
    static func makeFolder(_ path: String) throws(DrivesimError) -> [String] {
        var prefix = path.hasPrefix("/") ? "" : "."
        var made: [String] = []
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o777) == 0 {
                made.append(prefix)
            } else if errno != EEXIST {
                for folder in made.reversed() { rmdir(folder) }
                throw .cannotWrite(path: path, WriteProblem(errno: errno))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .cannotWrite(path: path, WriteProblem(errno: errno)) }
        guard isFolder(info) else { throw .cannotWrite(path: path, .notAFolder) }
        return made
    }

    /// Writes all of `bytes`; the problem if a write fails.
    static func writeAll(
        _ bytes: [UInt8], to fd: Int32, using write: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> WriteProblem? {
        bytes.withUnsafeBytes { writeAll($0, to: fd, using: write) }
    }

    /// The same for the bytes of `buffer`.
    static func writeAll(
        _ buffer: UnsafeRawBufferPointer, to fd: Int32, using write: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> WriteProblem? {
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return WriteProblem(errno: errno)
            }
            if written == 0 { return .noSpace }
            offset += written
        }
        return nil
    }

    /// `path` with every symbolic link along its last component followed
    /// (at most 40, as the kernel allows): the file a write really goes to.
    static func resolveLinks(_ path: String) throws(DrivesimError) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            if count < 0 {
                if errno == EINVAL || errno == ENOENT { return current }  // not a link, or nothing there yet
                throw .cannotWrite(path: path, WriteProblem(errno: errno))
            }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : split(current).folder + "/" + link
        }
        throw .cannotWrite(path: path, .symlinkLoop)
    }

    /// The folder (`.` if none) and the last component of `path`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// 16 hex digits from the operating system's random source
    /// (`SystemRandomNumberGenerator` is `getrandom` on Linux and
    /// `arc4random_buf` on Darwin). Only temporary names use it; no output does.
    static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let n = generator.next()
        let digits = String(n, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// What one entry of a folder walk found.
    enum Found: Sendable, Equatable {
        case file(String)
        case problem(DrivesimError)

        var path: String {
            switch self {
            case .file(let path): return path
            case .problem(.unreadable(let file, _)): return file
            case .problem: return ""
            }
        }
    }

    /// The files under the folder `base` whose names satisfy `wanted`, and
    /// every folder or wanted file that could not be read. Symbolic links
    /// are followed; a folder that is its own ancestor (same device and
    /// inode) is reported as a loop instead of entered again.
    /// `list` lists a folder; tests replace it to make one fail (as root,
    /// permissions cannot).
    static func walk(
        _ base: String, wanted: (String) -> Bool, list: (String) -> Result<[String], FileProblem> = names(in:)
    ) -> [Found] {
        var found: [Found] = []
        var info = stat()
        guard stat(base, &info) == 0 else { return [.problem(.unreadable(file: base, FileProblem(errno: errno)))] }
        walk(base, identity: Identity(info), ancestors: [], wanted: wanted, list: list, into: &found)
        return found
    }

    /// A file's or folder's identity: its device and inode.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    /// The names in `folder` (without `.` and `..`), or why it cannot be listed.
    static func names(in folder: String) -> Result<[String], FileProblem> {
        guard let dir = opendir(folder) else { return .failure(FileProblem(errno: errno)) }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 { return .failure(FileProblem(errno: errno)) }
                return .success(names)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
    }

    private static func walk(
        _ folder: String, identity: Identity, ancestors: Set<Identity>, wanted: (String) -> Bool,
        list: (String) -> Result<[String], FileProblem>, into found: inout [Found]
    ) {
        let names: [String]
        switch list(folder) {
        case .failure(let problem):
            found.append(.problem(.unreadable(file: folder, problem)))
            return
        case .success(let listed): names = listed
        }
        let inside = ancestors.union([identity])
        for name in names {
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else {
                // A broken or looping link, or a file gone meanwhile: reported if it looks like one we want.
                let problem = FileProblem(errno: errno)
                if wanted(name) || problem == .symlinkLoop { found.append(.problem(.unreadable(file: path, problem))) }
                continue
            }
            if isFolder(info) {
                let child = Identity(info)
                if inside.contains(child) {
                    found.append(.problem(.unreadable(file: path, .symlinkLoop)))
                } else {
                    walk(path, identity: child, ancestors: inside, wanted: wanted, list: list, into: &found)
                }
            } else if wanted(name) {
                found.append(.file(path))
            }
        }
    }

    /// Whether `path` is a folder (symbolic links followed).
    static func isFolder(path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && isFolder(info)
    }

    /// Whether `stat` describes a folder.
    static func isFolder(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }
    /// Whether `stat` describes a regular file.
    static func isRegular(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Calls `body` again while it fails with EINTR.
    static func retryingOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
