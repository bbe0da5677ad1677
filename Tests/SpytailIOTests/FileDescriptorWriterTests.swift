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
