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
}
