import Foundation

/// The MD5 digest (RFC 1321) of some bytes, as PostgreSQL's `md5()` computes it: the server
/// and this package must agree on a key's bucket (``KeyBuckets``). Not for security.
enum MD5 {
  /// The 16 bytes of the digest of `bytes`.
  static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
    // The bytes, a 1 bit, zeros up to 8 bytes short of a multiple of 64, and the number of
    // bits, little-endian.
    let paddedCount = (bytes.count + 8) / 64 * 64 + 64
    var message: [UInt8] = []
    message.reserveCapacity(paddedCount)
    message.append(contentsOf: bytes)
    message.append(0x80)
    message.append(contentsOf: repeatElement(0, count: paddedCount - 8 - message.count))
    let bitCount = UInt64(bytes.count) &* 8
    for shift in stride(from: 0, to: 64, by: 8) {
      message.append(UInt8(truncatingIfNeeded: bitCount >> shift))
    }

    var state: (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476
    )
    message.withUnsafeBytes { raw in
      for chunk in stride(from: 0, to: raw.count, by: 64) {
        let wordAt = { (index: Int) in
          UInt32(
            littleEndian: raw.loadUnaligned(fromByteOffset: chunk + index * 4, as: UInt32.self)
          )
        }
        var (a, b, c, d) = state
        for round in 0..<64 {
          let (mixed, index): (UInt32, Int)
          switch round / 16 {
          case 0: (mixed, index) = ((b & c) | (~b & d), round)
          case 1: (mixed, index) = ((d & b) | (~d & c), (5 &* round &+ 1) % 16)
          case 2: (mixed, index) = (b ^ c ^ d, (3 &* round &+ 5) % 16)
          default: (mixed, index) = (c ^ (b | ~d), (7 &* round) % 16)
          }
          let sum = a &+ mixed &+ constants[round] &+ wordAt(index)
          let amount = shifts[round / 16][round % 4]
          (a, d, c) = (d, c, b)
          b = b &+ (sum << amount | sum >> (32 - amount))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
      }
    }
    var digest: [UInt8] = []
    digest.reserveCapacity(16)
    for part in [state.0, state.1, state.2, state.3] {
      for shift in stride(from: 0, to: 32, by: 8) {
        digest.append(UInt8(truncatingIfNeeded: part >> shift))
      }
    }
    return digest
  }

  /// The amounts each round rotates by, four per group of sixteen rounds.
  private static let shifts: [[UInt32]] = [
    [7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21],
  ]

  /// The integer part of 2³² × |sin(i + 1)|, for each round i.
  private static let constants: [UInt32] = (0..<64).map { round in
    UInt32(4_294_967_296 * abs(sin(Double(round + 1))))
  }
}
