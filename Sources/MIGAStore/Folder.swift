/// The folder holding `path`, as a path: "/a/b" → "/a", "/a" → "/", "a" → ""
/// (what NSString's deletingLastPathComponent gives, without Foundation).
func folder(containing path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.last == "/" { path.removeLast() }
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var folder = path[..<slash]
    while folder.last == "/" { folder.removeLast() }
    return folder.isEmpty ? "/" : String(folder)
}
