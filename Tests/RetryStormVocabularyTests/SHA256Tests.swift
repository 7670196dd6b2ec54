import RetryStormVocabulary
import Testing

/// SHA-256 against published known answers, and fed in pieces that straddle the 64-byte blocks.
struct SHA256Tests {
    static func digest(_ bytes: [UInt8]) -> String {
        var h = SHA256()
        h.update(bytes)
        return h.hexDigest()
    }

    @Test(
        "known answers: FIPS 180-2 appendix B (abc, the 448-bit message, a million 'a'), the empty message (NIST CAVP), the 896-bit message",
        arguments: [
            // FIPS 180-2 (2002), Appendix B.1, "SHA-256 Example (One-Block Message)"; also NIST CSRC's SHA256.pdf example.
            ("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            // NIST CAVP SHAVS test vectors, SHA256ShortMsg.rsp, "Len = 0".
            ("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            // FIPS 180-2, Appendix B.2, "SHA-256 Example (Multi-Block Message)": the 448-bit message.
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            // FIPS 180-2, Appendix B.3, "SHA-256 Example (Long Message)": one million repetitions of 'a'.
            ("a", 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
            // The 896-bit message of FIPS 180-2 Appendix C.2 (a SHA-512 example there); its SHA-256 from GNU
            // coreutils sha256sum.
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            )
        ])
    func knownAnswers(text: String, repeats: Int, expected: String) {
        let bytes = Array((0..<repeats).map { _ in text.utf8 }.joined())
        #expect(Self.digest(bytes) == expected)
    }

    @Test(
        "padding at the block edges: 55, 56, 63, 64, 65 and 119 'a's (values from GNU coreutils sha256sum)",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb")
        ])
    func blockEdges(count: Int, expected: String) {
        #expect(Self.digest([UInt8](repeating: UInt8(ascii: "a"), count: count)) == expected)
    }

    @Test("the digest does not depend on how the message is cut into updates")
    func pieces() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = Self.digest(message)
        for cut in [1, 7, 55, 63, 64, 65, 128, 999] {
            var h = SHA256()
            var rest = message[...]
            while !rest.isEmpty {
                h.update(rest.prefix(cut))
                rest = rest.dropFirst(cut)
            }
            #expect(h.hexDigest() == whole, "pieces of \(cut)")
        }
        // Finalizing does not consume the state: more bytes may follow.
        var h = SHA256()
        h.update(Array(message[..<500]))
        _ = h.finalize()
        h.update(Array(message[500...]))
        #expect(h.hexDigest() == whole)
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
