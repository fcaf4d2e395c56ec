import MIGAFuzzing

// `miga-fuzz TARGET [libFuzzer options] [corpus folders]`: runs libFuzzer on
// one parser. A broken promise is a crash, which libFuzzer saves as an input
// to replay (see `make fuzz`).

/// libFuzzer's entry for a program with a main of its own.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>,
               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The parser under test: set once before libFuzzer starts, read by its callback
/// (a C function pointer, which can capture nothing).
nonisolated(unsafe) var target = FuzzTarget.config

@_cdecl("miga_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard argc >= 2, let argv, let name = argv[1].map({ String(cString: $0) }), let chosen = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        print("usage: miga-fuzz TARGET [libFuzzer options] [corpus folders]\ntargets: \(names)")
        return 64
    }
    target = chosen
    // libFuzzer reads the arguments after the target's name, with the program's name first.
    argv[1] = argv[0]
    var count = argc - 1
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv + 1
    return runDriver(&count, &arguments) { data, size in
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let broken = target.brokenPromises(input)
        if !broken.isEmpty { fatalError("\(target.rawValue): " + broken.joined(separator: "; ")) }
        return 0
    }
}
