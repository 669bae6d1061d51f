public import SharingDependencies

extension DependencyValues {
  /// The file storage that ``SharingCore/SharedReaderKey/fileStorage(_:decoder:encoder:)`` uses
  /// when a key is created.
  ///
  /// ``FileStorage/fileSystem`` when the program runs; a fresh ``FileStorage/inMemory``
  /// file system for each test and preview.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}

private enum DefaultFileStorageKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static var previewValue: FileStorage { .inMemory }
  static var testValue: FileStorage { .inMemory }
}
