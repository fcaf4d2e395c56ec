import Foundation
@testable import MIGACore
@testable import MIGAKit

/// A stand-in for `miga native-host`, for what the real one never does on
/// purpose (`RealNativeHost` is the real one): a bash script that speaks
/// native messaging's framing and writes every message it gets to a log. It answers the rules with two
/// sites (`site.example`, and `other.example/r/all` for a path prefix) and
/// no quotes of its own, so a pause without it shows the bundled ones; a
/// pause with a fixed `PauseState` that counts down two seconds (its quote
/// holds markup, to be shown as text), or with "open" for an address under
/// `/allowance`.
struct StandInNativeHost {
    let script: String
    let log: String
    static let quoteLine = "The stand-in host's quote,"

    /// Writes the script into `folder`.
    init(in folder: BrowserFolder) throws {
        script = folder.root + "/stand-in-native-host"
        log = folder.root + "/stand-in-native-host.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        try Self.source(log: log, rules: try Self.rules()).write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
    }

    /// The messages the host was sent, one JSON text each.
    var messages: [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The host manifest for Chromium (`allowed_origins`) or Firefox (`allowed_extensions`), written in `folder`.
    func register(in folder: String, chromiumID: String? = nil, geckoID: String? = nil) throws {
        var manifest: [String: Any] = ["name": "miga", "description": "MIGA (the tests' stand-in host)", "path": script, "type": "stdio"]
        if let chromiumID { manifest["allowed_origins"] = ["chrome-extension://\(chromiumID)/"] }
        if let geckoID { manifest["allowed_extensions"] = [geckoID] }
        try jsonText(manifest).write(toFile: folder + "/miga.json", atomically: true, encoding: .utf8)
    }

    /// The host as the browser finds it no more: not installed.
    func unregister(in folder: String) throws {
        try FileManager.default.removeItem(atPath: folder + "/miga.json")
    }

    /// The rules answer for its two sites, made by the real host's code (`SiteRules`).
    static func rules() throws -> String {
        let sites = try ["other.example/r/all", "site.example"].map(Site.init).map { SiteRules.rule(for: $0, pause: 2) }
        return String(decoding: try JSONEncoder().encode(SiteRules(sites: sites, quotes: [])), as: UTF8.self)
    }

    private static func source(log: String, rules: String) -> String {
        #"""
        #!/bin/bash
        # The sites' tests' stand-in for `miga native-host`.
        export LC_ALL=C
        log=\#(shellQuoted(log))
        start=$(date +%s%3N)
        url=''
        answer() {
          local n=${#1}
          printf "\\$(printf %03o $((n & 255)))\\$(printf %03o $((n >> 8 & 255)))\\$(printf %03o $((n >> 16 & 255)))\\$(printf %03o $((n >> 24 & 255)))%s" "$1"
        }
        left() {
          local gone=$(( $(date +%s%3N) - start ))
          local left=$(( (2000 - gone + 999) / 1000 ))
          [ "$left" -lt 0 ] && left=0
          echo "$left"
        }
        state() {
          local left open=false
          left=$(left)
          [ "$left" -eq 0 ] && open=true
          answer "{\"type\":\"state\",\"state\":{\"program\":\"site:site.example\",\"header\":\"a pause before site.example\",\"kind\":\"breathe\",\"quote\":{\"id\":\"stand-in\",\"verses\":[\"The stand-in host's quote,\",\"in <b>two</b> lines.\"],\"source\":\"The tests\",\"tags\":[]},\"length\":2,\"secondsLeft\":$left,\"held\":false,\"deepenCount\":0,\"choices\":[\"exitToFocus\",\"deepen\",\"proceed\"],\"proceedLabel\":\"Proceed to site.example\",\"proceedOpen\":$open$1}}"
        }
        while :; do
          length=$(dd bs=1 count=4 status=none | od -An -tu4 | tr -d ' ')
          [ -n "$length" ] || exit 0
          message=$(dd bs=1 count="$length" status=none)
          printf '%s\n' "$message" >> "$log"
          compact=$(printf '%s' "$message" | tr -d ' ')
          case $compact in
            *'"type":"rules"'*|*'"type":"watch"'*)
              answer \#(shellQuoted(rules)) ;;
            *'"type":"applied"'*)
              answer '{"type":"noted"}' ;;
            *'"type":"pause"'*'/allowance'*)
              answer '{"type":"open","reason":"allowance"}' ;;
            *'"type":"pause"'*)
              url=$(printf '%s' "$compact" | sed -n 's/.*"url":"\([^"]*\)".*/\1/p')
              start=$(date +%s%3N)
              state ;;
            *'"choice":"exitToFocus"'*)
              answer '{"type":"ended","ending":"exitToFocus"}' ;;
            *'"choice":"proceed"'*)
              if [ "$(left)" -eq 0 ]; then answer "{\"type\":\"ended\",\"ending\":\"proceed\",\"open\":\"$url\"}"
              else state ',"notice":"notYet"'; fi ;;
            *'"type":"outcomes"'*)
              answer '{"type":"recorded","count":1}' ;;
            *) state ;;
          esac
        done
        """#
    }
}
