import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Pins how call sites resolve: which key type, and which storage format, each spelling gets.
@Suite struct CompileTimeTests {
  @Dependency(\.defaultAppStorage) var store

  @Test func nativeTypesPreferTheirOwnOverloadsOverCodable() {
    @Shared(.appStorage("string")) var string = "a"
    @Shared(.appStorage("int")) var int = 1
    @Shared(.appStorage("date")) var date = Date(timeIntervalSince1970: 0)
    @Shared(.appStorage("theme")) var theme = Theme.light
    @Shared(.appStorage("optionalString")) var optionalString: String? = nil
    $string.withLock { $0 = "b" }
    $int.withLock { $0 = 2 }
    $date.withLock { $0 = Date(timeIntervalSince1970: 1) }
    $theme.withLock { $0 = .dark }
    $optionalString.withLock { $0 = "c" }
    #expect(store.object(forKey: "string") is String)
    #expect(store.object(forKey: "int") is Int)
    #expect(store.object(forKey: "date") is Date)
    #expect(store.object(forKey: "theme") is String)
    #expect(store.object(forKey: "optionalString") is String)
  }

  @Test func keyTypes() {
    let url = URL(fileURLWithPath: "/virtual/file.json")
    #expect(type(of: FileStorageKey<[String]>.fileStorage(url)) == FileStorageKey<[String]>.self)
    #expect(type(of: AppStorageKey<URL?>.appStorage("url")) == AppStorageKey<URL?>.self)
    #expect(type(of: InMemoryKey<Int?>.inMemory("k")) == InMemoryKey<Int?>.self)
  }

  /// `.fileSystem` is the program's storage; each `.fileSystem(…)` call makes a new one.
  @Test func fileSystemStorages() {
    let storages: [FileStorage] = [
      .fileSystem,
      .fileSystem(throttle: .zero),
      .fileSystem(lockTimeout: .seconds(30)),
      .fileSystem(throttle: .zero, lockTimeout: .zero),
    ]
    #expect(storages[0] == FileStorage.fileSystem)
    #expect(Set(storages).count == storages.count)
  }

  @Test func keysWithDefaults() {
    @Shared(.isHapticsEnabled) var isHapticsEnabled
    @SharedReader(.isHapticsEnabled) var reader
    #expect(isHapticsEnabled == true)
    $isHapticsEnabled.withLock { $0 = false }
    #expect(reader == false)
    #expect(store.object(forKey: "isHapticsEnabled") as? Bool == false)
  }

  @Test func optionalValuesNeedNoDefault() {
    @Shared(.inMemory("name")) var name: String?
    @Shared(.appStorage("lastOpened")) var lastOpened: URL?
    #expect(name == nil)
    #expect(lastOpened == nil)
  }
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  fileprivate static var isHapticsEnabled: Self {
    Self[.appStorage("isHapticsEnabled"), default: true]
  }
}
