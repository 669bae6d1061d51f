import Foundation

/// The identity of a ``FileStorageKey``: its file and its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let url: URL
  let storage: FileStorage
}
