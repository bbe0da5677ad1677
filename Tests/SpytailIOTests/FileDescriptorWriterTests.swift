import Glibc
import Testing
import SpytailCore
import SpytailIO
import SpytailTestSupport

struct FileDescriptorWriterTests {
    @Test func appendsToFilesCreatedWithRestrictedMode() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("out.jsonl")
        let old = umask(0o022)
        defer { umask(old) }
        for text in ["one\n", "two\n"] {
            let writer = try FileDescriptorWriter.appending(to: path)
            try Array(text.utf8).withUnsafeBufferPointer { try writer.write($0) }
        }
        #expect(String(decoding: dir.read("out.jsonl"), as: UTF8.self) == "one\ntwo\n")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
    }

    /// A record cut short at the end of the file (a full disk, then the process ended) gets a line of its own
    /// before anything is appended, so it does not spoil the next record; a file ending in a newline, or empty,
    /// is appended to as it is.
    @Test(arguments: [("{\"a\":1}\n{\"b\":", "{\"a\":1}\n{\"b\":\n{\"c\":3}\n"), ("{\"a\":1}\n", "{\"a\":1}\n{\"c\":3}\n"), ("", "{\"c\":3}\n")])
    func aTornRecordAtTheEndGetsALineOfItsOwn(before: String, after: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("out.jsonl", before)
        let writer = try FileDescriptorWriter.appending(to: dir.file("out.jsonl"))
        try Array("{\"c\":3}\n".utf8).withUnsafeBufferPointer { try writer.write($0) }
        #expect(String(decoding: dir.read("out.jsonl"), as: UTF8.self) == after)
    }

    /// An output file spytail may write but not read: appended to without a look at its end.
    @Test(.enabled(if: getuid() != 0, "root reads any file")) func aWriteOnlyOutputIsAppendedToWithoutALook() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("out.jsonl", "{\"b\":")
        chmod(path, 0o200)
        let writer = try FileDescriptorWriter.appending(to: path)
        try Array("x\n".utf8).withUnsafeBufferPointer { try writer.write($0) }
        chmod(path, 0o600)
        #expect(String(decoding: dir.read("out.jsonl"), as: UTF8.self) == "{\"b\":x\n")
    }

    @Test func aMissingFolderIsATypedError() {
        #expect(throws: SinkError.self) { try FileDescriptorWriter.appending(to: "/nonexistent-spytail/x.jsonl") }
    }
}

struct FileDescriptorWriterReopenTests {
    @Test func anOutputRemovedOrRenamedByAnotherToolIsCreatedAgain() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("out.jsonl")
        let writer = try FileDescriptorWriter.appending(to: path)
        func write(_ text: String) throws { try Array(text.utf8).withUnsafeBufferPointer { try writer.write($0) } }
        try write("one\n")
        rename(path, dir.file("out.jsonl.1"))  // rotated away
        try write("two\n")
        unlink(path)                            // removed
        try write("three\n")
        #expect(String(decoding: dir.read("out.jsonl.1"), as: UTF8.self) == "one\n")
        #expect(String(decoding: dir.read("out.jsonl"), as: UTF8.self) == "three\n")
        #expect(writer.reopenCount == 2)
    }
}
