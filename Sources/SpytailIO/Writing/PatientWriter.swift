import SpytailCore

/// A writer that waits in place when its output is full: what did not get out is kept, `waitForSpace` is
/// asked to wait (it throws to give up: a stop came), and the rest is written again. Used while `run`
/// catches up a backlog, which cannot pause and come back later (a gzip stream has no position).
final class PatientWriter: ByteWriter {
    let base: any ByteWriter
    private let waitForSpace: (SinkError) throws(SinkError) -> Void
    private let spaceAgain: () -> Void

    init(_ base: any ByteWriter, waitForSpace: @escaping (SinkError) throws(SinkError) -> Void, spaceAgain: @escaping () -> Void) {
        self.base = base
        self.waitForSpace = waitForSpace
        self.spaceAgain = spaceAgain
    }

    var name: String { base.name }
    var routesByFile: Bool { base.routesByFile }

    func forFile(_ file: SourceFile) throws(SinkError) -> any ByteWriter {
        routesByFile ? PatientWriter(try base.forFile(file), waitForSpace: waitForSpace, spaceAgain: spaceAgain) : self
    }

    func sync() throws(SinkError) { try base.sync() }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(SinkError) {
        var rest = bytes
        var waited = false
        while true {
            do {
                try base.write(rest)
                if waited { spaceAgain() }
                return
            } catch where error.cause.pausesReading {
                rest = UnsafeBufferPointer(rebasing: rest[min(error.written, rest.count)...])
                waited = true
                try waitForSpace(error)
            }
        }
    }
}
