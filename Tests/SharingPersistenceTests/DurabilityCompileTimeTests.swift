import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Pins how the spellings of versions, migrations and throttle intervals resolve.
@Suite struct DurabilityCompileTimeTests {
  let url = URL(fileURLWithPath: "/virtual/file.json")

  @Test func migrationsInferTheKeysValue() {
    @Shared(.versionedTodos) var todos
    @Shared(.versionedNotes) var notes = ""
    #expect(todos == [])
    #expect(notes == "")
  }

  @Test func closuresInAnAttributeNeedAKnownKeyType() {
    // NB: Through the 'some SharedKey' parameter of 'Shared', an implicit '.fileStorage' does
    //     not let its closures be inferred '@Sendable'; naming the key type, or declaring
    //     the key as a static member as above, does.
    @Shared(
      FileStorageKey.fileStorage(
        url,
        version: 2,
        migrations: [.from(1) { data in data.count }]
      )
    )
    var count = 0
    let migrations: [SchemaMigration<Int>] = [.from(1, decoding: String.self) { $0.count }]
    @Shared(.fileStorage(url, version: 2, migrations: migrations)) var length = 0
    #expect(count == 0)
    #expect(length == 0)
  }

  @Test func migrationsMayReturnTheValueDataOrAnyEncodable() {
    let toValue = SchemaMigration<Int>.from(1) { data in Int(data.count) }
    let toData = SchemaMigration<Int>.from(2) { data in data + Data("0".utf8) }
    let toEncodable = SchemaMigration<Int>.from(3) { _ in ["a": 1] }
    let multiStatement = SchemaMigration<Int>.from(4, decoding: String.self) { string in
      let trimmed = string.trimmingCharacters(in: .whitespaces)
      return trimmed.count
    }
    #expect([toValue, toData, toEncodable, multiStatement].map(\.version) == [1, 2, 3, 4])
  }

  @Test func keyTypesAndOptionalParameters() {
    #expect(
      type(of: FileStorageKey<Int>.fileStorage(url, throttle: .zero)) == FileStorageKey<Int>.self
    )
    #expect(
      type(of: FileStorageKey<Int>.fileStorage(url, version: 2, migrations: [], throttle: .zero))
        == FileStorageKey<Int>.self
    )
    #expect(
      type(
        of: FileStorageKey<String>.fileStorage(
          url,
          throttle: .seconds(2),
          decode: { String(decoding: $0, as: UTF8.self) },
          encode: { Data($0.utf8) }
        )
      ) == FileStorageKey<String>.self
    )
    #expect(
      type(of: AppStorageKey<Bool>.appStorage("flag", version: 2, migrations: []))
        == AppStorageKey<Bool>.self
    )
  }

  @Test func versionedBoolInUserDefaultsIsStoredAsJSON() {
    @Dependency(\.defaultAppStorage) var store
    @Shared(.appStorage("flag", version: 2, migrations: [])) var flag = false
    $flag.withLock { $0 = true }
    #expect(store.object(forKey: "flag") is Data)
  }
}

extension SharedReaderKey where Self == FileStorageKey<[Todo]>.Default {
  fileprivate static var versionedTodos: Self {
    Self[
      .fileStorage(
        URL(fileURLWithPath: "/virtual/todos.json"),
        version: 3,
        migrations: [
          .from(1, decoding: [String].self) { titles in
            titles.map { TodoV2(title: $0, isDone: false) }
          },
          .from(2, decoding: [TodoV2].self) { todos in
            todos.map { Todo(title: $0.title, isDone: $0.isDone, tags: []) }
          },
        ]
      ),
      default: []
    ]
  }
}

extension SharedReaderKey where Self == FileStorageKey<String> {
  fileprivate static var versionedNotes: Self {
    .fileStorage(
      URL(fileURLWithPath: "/virtual/notes.txt"),
      version: 2,
      migrations: [.from(1) { data in String(decoding: data, as: UTF8.self) }],
      decode: { try JSONDecoder().decode(String.self, from: $0) },
      encode: { try JSONEncoder().encode($0) }
    )
  }
}
