/// The folder holding `path`, as a path: "/a/b" → "/a", "/a" → "/", "a" → "",
/// "//a//b/" → "/a" (what NSString's deletingLastPathComponent gives, without Foundation).
func folder(containing path: String) -> String {
    let names = path.split(separator: "/")
    let root = path.hasPrefix("/") ? "/" : ""
    return root + names.dropLast().joined(separator: "/")
}
