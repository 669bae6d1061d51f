import Foundation

/// What the bytes of a file mean.
enum FileContents {
  /// The bytes older swift-sharing versions wrote to create a file before watching it.
  static let swiftSharingStub = Data("co.pointfree.Sharing.FileStorage.stub".utf8)

  /// Whether bytes mean "no value": no file, an empty one, or swift-sharing's stub.
  static func holdsNoValue(_ data: Data?) -> Bool {
    guard let data else { return true }
    return data.isEmpty || data == swiftSharingStub
  }
}
