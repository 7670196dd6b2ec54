/// SHA-256 as specified in FIPS 180-4 ("Secure Hash Standard", NIST, 2015), §5.1.1 (padding),
/// §5.3.3 (initial hash value), §4.2.2 (constants) and §6.2.2 (the compression function).
///
/// In pure Swift so that shard digests and the hashes of input files need no package or system
/// library. Feed bytes with ``update(_:)`` any number of times, then take ``finalize()``.
/// Messages up to 2^64 − 1 bits.
/// Throughput is about that of the disk (a few hundred MB/s in release builds).
package struct SHA256: Sendable {
    private var state: [UInt32] = [0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19]
    /// Bytes of the current, incomplete 64-byte block.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    package init() {}

    static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2
    ]

    /// Appends `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        length &+= UInt64(bytes.count)
        var start = 0
        if !pending.isEmpty {
            start = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[..<start])
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { block in block.baseAddress.map { compress($0, blocks: 1) } }
            pending.removeAll(keepingCapacity: true)
        }
        // Whole blocks straight from the caller's memory: no copy for the bulk of a file.
        let blocks = (bytes.count - start) / 64
        if blocks > 0 { compress(base + start, blocks: blocks) }
        pending.append(contentsOf: bytes[(start + 64 * blocks)...])
    }

    package mutating func update(_ bytes: ArraySlice<UInt8>) { bytes.withUnsafeBytes { update($0) } }

    package mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    package mutating func update(_ text: String) { update(Array(text.utf8)) }

    /// The 32-byte digest of everything appended (the message padded as §5.1.1 says).
    package func finalize() -> [UInt8] {
        var copy = self
        let bits = length &* 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (55 &- Int(length % 64) + 64) % 64)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        copy.update(tail)
        return copy.state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
    }

    /// The digest as 64 lowercase hexadecimal digits.
    package func hexDigest() -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: finalize().flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The hex digest of `text`'s UTF-8 bytes.
    package static func hex(_ text: String) -> String {
        var h = SHA256()
        h.update(text)
        return h.hexDigest()
    }

    /// `blocks` consecutive 64-byte blocks from `base` (§6.2.2), the state kept in locals
    /// between them.
    private mutating func compress(_ base: UnsafeRawPointer, blocks: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        Self.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for n in 0..<blocks {
                    let block = base + 64 * n
                    for t in 0..<16 { w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self)) }
                    for t in 16..<64 {
                        let s0 = w[t - 15].rotated(7) ^ w[t - 15].rotated(18) ^ (w[t - 15] >> 3)
                        let s1 = w[t - 2].rotated(17) ^ w[t - 2].rotated(19) ^ (w[t - 2] >> 10)
                        w[t] = s1 &+ w[t - 7] &+ s0 &+ w[t - 16]
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let t1 = h &+ (e.rotated(6) ^ e.rotated(11) ^ e.rotated(25)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                        let t2 = (a.rotated(2) ^ a.rotated(13) ^ a.rotated(22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                }
            }
        }
        state = [h0, h1, h2, h3, h4, h5, h6, h7]
    }
}

extension UInt32 {
    /// Rotation right by `n` bits (ROTR in FIPS 180-4 §3.2), 0 < n < 32.
    @inline(__always) fileprivate func rotated(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
