import Foundation

/// The identity of a ``FileStorageKey``: its file and its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let url: URL
  let storage: FileStorage
  /// Whether the key is coordinated: a coordinated key never shares a value with a plain
  /// one.
  let isCoordinated: Bool
}
