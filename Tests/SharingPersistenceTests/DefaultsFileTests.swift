import Foundation
import Testing

@testable import SharingPersistence

/// Which bytes of a user defaults file Foundation could not read as a store.
@Suite struct DefaultsFileTests {
  /// A large file is judged by its structure, without parsing its values: whole, it is a
  /// store; torn, it is not.
  @Test func aLargeFileIsJudgedWithoutParsingItsValues() throws {
    let large = try PropertyListSerialization.data(
      fromPropertyList: ["data": Data(count: 300_000), "count": 1],
      format: .xml,
      options: 0
    )
    #expect(large.count > 256 * 1024)
    #expect(!DefaultsFile.isUnparseable(large))
    #expect(DefaultsFile.isUnparseable(large.prefix(large.count - 10)))
    #expect(DefaultsFile.isUnparseable(large.prefix(large.count / 2)))
    #expect(DefaultsFile.isUnparseable(Data(repeating: UInt8(ascii: "x"), count: 300_000)))
  }

  /// Bytes in the binary format whose dictionary one corrupt byte made a set are not a store:
  /// Foundation's parser, given them, stops the program on Linux.
  @Test func aBinaryFileHoldingASetIsNotAStore() throws {
    let store = try PropertyListSerialization.data(
      fromPropertyList: ["count": 1, "name": "a"],
      format: .binary,
      options: 0
    )
    #expect(!DefaultsFile.isUnparseable(store))
    #expect(DefaultsFile.isUnparseable(markingTheTopObjectASet(store)))
  }
}

/// `bytes`, a property list in the binary format, with the marker of its top object (a
/// dictionary or an array) changed to that of a set of as many members, as one corrupt byte
/// can.
func markingTheTopObjectASet(_ bytes: Data) -> Data {
  var bytes = [UInt8](bytes)
  let trailer = bytes.count - 32
  let offsetSize = Int(bytes[trailer + 6])
  let top = bytes[(trailer + 16)..<(trailer + 24)].reduce(0) { $0 << 8 | Int($1) }
  let table = bytes[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
  let entry = table + top * offsetSize
  let offset = bytes[entry..<(entry + offsetSize)].reduce(0) { $0 << 8 | Int($1) }
  bytes[offset] = 0xC0 | (bytes[offset] & 0x0F)
  return Data(bytes)
}
