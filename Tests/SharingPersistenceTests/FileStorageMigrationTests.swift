import Foundation
import SharingCore
import SharingDependencies
import SharingPersistence
import Testing

/// Versioned file storage on the real disk: a chain of migrations from version 1 (a file
/// written without a version) through version 2 to version 3.
@Suite struct FileStorageMigrationTests {
  /// Counts the runs of each migration.
  let runs = Locked<[Int: Int]>([:])

  /// Version 3 of the todos file, reading versions 1 and 2.
  func todosKey(_ url: URL) -> FileStorageKey<[Todo]> {
    .fileStorage(
      url,
      version: 3,
      migrations: [
        .from(1, decoding: [TodoV1].self) { [runs] old in
          runs.withLock { $0[1, default: 0] += 1 }
          return old.map { TodoV2(title: $0.name, isDone: false) }
        },
        .from(2, decoding: [TodoV2].self) { [runs] old in
          runs.withLock { $0[2, default: 0] += 1 }
          return old.map { Todo(title: $0.title, isDone: $0.isDone, tags: []) }
        },
      ]
    )
  }

  @Test func version1IsMigratedOnceAndSavedAsVersion3() async throws {
    try await withDiskStorage { storage, _, directory in
      let url = directory.file("todos.json")
      try bytes(#"[{"name":"Milk"}]"#).write(to: url)
      do {
        @Shared(todosKey(url)) var todos: [Todo] = []
        #expect(todos == [Todo(title: "Milk", isDone: false, tags: [])])
        #expect($todos.loadError == nil)
      }
      #expect(runs.withLock { $0 } == [1: 1, 2: 1])
      #expect(storage.writeCount(to: url) == 1)
      #expect(
        fileText(url) == """
          {
            "$version" : 3,
            "value" : [
              {
                "isDone" : false,
                "tags" : [

                ],
                "title" : "Milk"
              }
            ]
          }
          """
      )

      @Shared(todosKey(url)) var todos: [Todo] = []
      #expect(todos == [Todo(title: "Milk", isDone: false, tags: [])])
      #expect(runs.withLock { $0 } == [1: 1, 2: 1])
      #expect(storage.writeCount(to: url) == 1)
    }
  }

  @Test func version2RunsOnlyTheMigrationsAfterIt() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("todos.json")
      try bytes(#"{"$version":2,"value":[{"title":"Bread","isDone":true}]}"#).write(to: url)
      @Shared(todosKey(url)) var todos: [Todo] = []
      #expect(todos == [Todo(title: "Bread", isDone: true, tags: [])])
      #expect(runs.withLock { $0 } == [2: 1])
      #expect(fileText(url)?.hasPrefix("{\n  \"$version\" : 3,") == true)
    }
  }

  @Test func theEnvelopeIsPlainJSON() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("todos.json")
      @Shared(todosKey(url)) var todos: [Todo] = []
      $todos.withLock { $0 = [Todo(title: "Eggs", isDone: true, tags: ["shop"])] }
      scheduler.advance()
      struct Envelope: Decodable {
        let version: Int
        let value: [Todo]
        enum CodingKeys: String, CodingKey {
          case version = "$version"
          case value
        }
      }
      let envelope = try JSONDecoder().decode(Envelope.self, from: Data(contentsOf: url))
      #expect(envelope.version == 3)
      #expect(envelope.value == todos)
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
      #expect((object as? [String: Any])?.keys.sorted() == ["$version", "value"])
    }
  }

  @Test func version1IsWrittenExactlyAsWithoutAVersion() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let plain = directory.file("plain.json")
      let versioned = directory.file("versioned.json")
      @Shared(.fileStorage(plain)) var first = [Todo(title: "A", isDone: false, tags: [])]
      @Shared(.fileStorage(versioned, version: 1, migrations: []))
      var second = [Todo(title: "A", isDone: false, tags: [])]
      $first.withLock { $0[0].isDone = true }
      $second.withLock { $0[0].isDone = true }
      scheduler.advance()
      let (plainBytes, versionedBytes) = try (Data(contentsOf: plain), Data(contentsOf: versioned))
      #expect(plainBytes == versionedBytes)
    }
  }

  @Test func aFileWrittenWithoutAVersionIsVersion1() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("todos.json")
      do {
        @Shared(.fileStorage(url)) var old = [TodoV1(name: "Tea")]
        $old.withLock { $0.append(TodoV1(name: "Jam")) }
        scheduler.advance()
      }
      @Shared(todosKey(url)) var todos: [Todo] = []
      #expect(todos.map(\.title) == ["Tea", "Jam"])
    }
  }

  @Test func unreadableVersionIsQuarantinedAndNamed() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("todos.json")
      let original = #"[{"nom":"Lait"}]"#
      try bytes(original).write(to: url)
      do {
        @Shared(todosKey(url)) var todos = [Todo(title: "default", isDone: false, tags: [])]
        #expect(todos.map(\.title) == ["default"])
        let error = try #require($todos.loadError as? MigrationError)
        #expect(error.storedVersion == 1)
        #expect(error.failedVersion == 1)
        #expect(error.currentVersion == 3)
        guard case .migrationFailed(let underlying) = error.reason else {
          Issue.record("Unexpected reason: \(error.reason)")
          return
        }
        #expect(underlying is DecodingError)
        #expect(
          "\(error)".hasPrefix(
            """
            The value in todos.json is stored at version 1 and could not be migrated to \
            version 3: the migration from version 1 failed:
            """
          )
        )
        #expect(fileText(url) == original)
        $todos.withLock { $0.append(Todo(title: "new", isDone: false, tags: [])) }
        scheduler.advance()
      }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
      #expect(names.count == 2)
      let kept = try #require(names.last)
      #expect(kept.hasPrefix("todos.json.corrupt-"))
      #expect(fileText(directory.file(kept)) == original)
      #expect(fileText(url)?.contains("\"$version\" : 3") == true)
    }
  }

  @Test func aFailingLaterStepNamesItsVersion() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("todos.json")
      try bytes(#"[{"name":"Milk"}]"#).write(to: url)
      struct Refused: Error {}
      let key = FileStorageKey<[Todo]>.fileStorage(
        url,
        version: 3,
        migrations: [
          .from(1, decoding: [TodoV1].self) { $0.map { TodoV2(title: $0.name, isDone: false) } },
          .from(2) { _ in throw Refused() },
        ]
      )
      do {
        @Shared(key) var todos: [Todo] = []
        let error = $todos.loadError as? MigrationError
        #expect(error?.storedVersion == 1)
        #expect(error?.failedVersion == 2)
        #expect(
          error.map { "\($0)" }?.contains("the migration from version 2 failed: Refused()") == true
        )
      }
    }
  }

  @Test func aMissingMigrationIsNamed() async throws {
    try await withDiskStorage { _, _, directory in
      let url = directory.file("todos.json")
      try bytes(#"[{"name":"Milk"}]"#).write(to: url)
      let key = FileStorageKey<[Todo]>.fileStorage(
        url,
        version: 3,
        migrations: [.from(2, decoding: [TodoV2].self) { _ in [] }]
      )
      do {
        @Shared(key) var todos: [Todo] = []
        let error = $todos.loadError as? MigrationError
        #expect(error?.failedVersion == 1)
        #expect(error.map { "\($0)" }?.hasSuffix("no migration reads version 1.") == true)
      }
    }
  }

  @Test func aNewerVersionIsNotReadNorLost() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("todos.json")
      let newer = #"{"$version":4,"value":[{"title":"From the future"}]}"#
      try bytes(newer).write(to: url)
      do {
        @Shared(todosKey(url)) var todos: [Todo] = []
        #expect(todos == [])
        let error = $todos.loadError as? MigrationError
        #expect(error?.storedVersion == 4)
        #expect(
          error.map { "\($0)" }
            == """
            The value in todos.json is stored at version 4, newer than version 3, the latest \
            this key reads: a newer program wrote it.
            """
        )
        $todos.withLock { $0 = [Todo(title: "Now", isDone: false, tags: [])] }
        scheduler.advance()
      }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      let kept = try #require(names.first { $0.hasPrefix("todos.json.corrupt-") })
      #expect(fileText(directory.file(kept)) == newer)
    }
  }

  @Test func customCodingKeepsTextReadable() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("notes.txt")
      try bytes("line one\nline two").write(to: url)
      let key = FileStorageKey<Notes>.fileStorage(
        url,
        version: 2,
        migrations: [.from(1) { data in Notes(lines: String(decoding: data, as: UTF8.self)) }],
        decode: { Notes(lines: String(decoding: $0, as: UTF8.self), isMarkdown: true) },
        encode: { Data($0.lines.utf8) }
      )
      @Shared(key) var notes = Notes(lines: "")
      #expect(notes == Notes(lines: "line one\nline two"))
      #expect(fileText(url) == #"{"$version":2,"text":"line one\nline two"}"#)
      $notes.withLock { $0.lines += "\nline three" }
      // NB: Writing the migrated value back was the file's last write.
      scheduler.advance(by: .seconds(1))
      #expect(fileText(url) == #"{"$version":2,"text":"line one\nline two\nline three"}"#)
    }
  }

  @Test func binaryCodingIsKeptInBase64() async throws {
    try await withDiskStorage { _, scheduler, directory in
      let url = directory.file("bytes.bin")
      let key = FileStorageKey<[UInt8]>.fileStorage(
        url,
        version: 2,
        migrations: [],
        decode: { Array($0) },
        encode: { Data($0) }
      )
      do {
        @Shared(key) var bytes: [UInt8] = []
        $bytes.withLock { $0 = [0xFF, 0x00, 0xFE] }
        scheduler.advance()
      }
      #expect(fileText(url) == #"{"$version":2,"base64":"\/wD+"}"#)
      @Shared(key) var bytes: [UInt8] = []
      #expect(bytes == [0xFF, 0x00, 0xFE])
    }
  }
}

/// Migrations of values another program writes, on the virtual file system.
@Suite struct FileStoragePlaybackMigrationTests {
  let url = URL(fileURLWithPath: "/virtual/todos.json")
  @Dependency(\.defaultFileStorage) var storage

  /// A key at version 2 that migrates version 1 by appending " migrated", and cannot encode.
  private func keyRefusingToEncode(_ error: some Error) -> FileStorageKey<String> {
    .fileStorage(
      url,
      version: 2,
      migrations: [.from(1) { String(decoding: $0, as: UTF8.self) + " migrated" }],
      decode: { String(decoding: $0, as: UTF8.self) },
      encode: { _ in throw error }
    )
  }

  /// A migrated value that cannot be written back is a save error; it stays in memory.
  @Test func aFailedWriteBackSetsSaveError() {
    struct Refused: Error {}
    storage.simulateExternalWrite(bytes("old"), to: url)
    let key = keyRefusingToEncode(Refused())
    @Shared(key) var text = ""
    #expect(text == "old migrated")
    #expect($text.loadError == nil)
    #expect($text.saveError is Refused)
    #expect(storage.contents(of: url) == bytes("old"))
  }

  @Test func aFailedWriteBackOfAPlayedBackVersionSetsSaveError() {
    struct Refused: Error {}
    let key = keyRefusingToEncode(Refused())
    @Shared(key) var text = ""
    storage.simulateExternalWrite(bytes("old"), to: url)
    #expect(text == "old migrated")
    #expect($text.saveError is Refused)
    #expect(storage.contents(of: url) == bytes("old"))
  }

  @Test func anOldVersionWrittenByAnotherProgramIsMigratedAndWrittenBack() {
    let key = FileStorageKey<[Todo]>.fileStorage(
      url,
      version: 2,
      migrations: [
        .from(1, decoding: [TodoV1].self) {
          $0.map { Todo(title: $0.name, isDone: false, tags: []) }
        }
      ]
    )
    @Shared(key) var todos: [Todo] = []
    storage.simulateExternalWrite(bytes(#"[{"name":"Milk"}]"#), to: url)
    #expect(todos.map(\.title) == ["Milk"])
    #expect(text(storage.contents(of: url))?.hasPrefix("{\n  \"$version\" : 2,") == true)
  }
}

struct TodoV1: Codable, Equatable {
  var name: String
}

struct TodoV2: Codable, Equatable {
  var title: String
  var isDone: Bool
}

struct Todo: Codable, Equatable {
  var title: String
  var isDone: Bool
  var tags: [String]
}

struct Notes: Equatable {
  var lines: String
  var isMarkdown = true
}
