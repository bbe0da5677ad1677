import Glibc

// One libFuzzer binary holds every target, so the sanitized core is compiled once; SPYTAIL_FUZZ_TARGET names
// the target a run exercises (scripts/fuzz sets it).
nonisolated(unsafe) var fuzzTarget: (UnsafePointer<UInt8>, Int) -> Int32 = { _, _ in 0 }

@_cdecl("LLVMFuzzerInitialize")
public func initializeFuzzing(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = getenv("SPYTAIL_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    switch name {
    case "config": fuzzTarget = fuzzConfig
    case "lines": fuzzTarget = fuzzLines
    case "json": fuzzTarget = fuzzJSON
    case "structured":
        // The configs are compiled before the first input: made lazily inside one, they would count as its leak.
        _ = configs
        fuzzTarget = fuzzStructured
    case "gzip": fuzzTarget = fuzzGzip
    case "container": fuzzTarget = fuzzContainer
    default:
        fputs("SPYTAIL_FUZZ_TARGET must be one of config, lines, json, structured, gzip, container (it is \"\(name)\")\n", stderr)
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzTarget(data, size)
}
