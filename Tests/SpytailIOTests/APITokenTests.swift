import Testing
import SpytailIO

struct APITokenTests {
    /// A token made for a run without `http.tokenFile`: 128 bits as 32 lowercase hex digits, new each time.
    @Test func aRandomTokenIs32HexDigitsAndNewEachTime() {
        let tokens = (0..<64).map { _ in APIToken.random() }
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(Set(tokens).count == tokens.count)
        // Every digit position takes more than one value across the tokens (no constant byte, no lost padding).
        for position in 0..<32 {
            #expect(Set(tokens.map { Array($0)[position] }).count > 1)
        }
    }
}
