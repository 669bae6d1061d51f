import Foundation

/// What a write does with its bytes, decided with the file's lock held.
enum WriteDecision {
  /// Nothing: the file holds the bytes, or a newer write landed.
  case skip
  /// Write them, after keeping these bytes aside, if any.
  case write(keepingAside: Data?)
  /// Fail with this error: the file is not to be overwritten.
  case fail(any Error)
}

/// What a file is known to hold.
enum FileContents {
  /// Nothing known.
  case unknown
  /// These bytes, or `nil` for no file.
  case bytes(Data?)
  /// The file exists but could not be read.
  case unreadable(any Error)

  init(_ read: Result<Data?, any Error>) {
    switch read {
    case .success(let data): self = .bytes(data)
    case .failure(let error): self = .unreadable(error)
    }
  }

  /// The bytes older swift-sharing versions wrote to create a file before watching it.
  static let swiftSharingStub = Data("__swift-sharing_empty_file__".utf8)

  /// Whether bytes mean "no value": no file, an empty one, or swift-sharing's stub.
  static func holdsNoValue(_ data: Data?) -> Bool {
    guard let data else { return true }
    return data.isEmpty || data == swiftSharingStub
  }
}
