// libFuzzer target: the config decoder and compiler must reject any bytes with errors, never crash.
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let compiled = try CompiledConfig(json: bytes)
        _ = compiled.summary
    } catch {
        precondition(!error.errors.isEmpty, "a refused config names at least one problem")
        for problem in error.errors { _ = problem.description }
    }
    return 0
}
