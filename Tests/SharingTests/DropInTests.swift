import Foundation
import Sharing
import Testing

// Code written the way swift-sharing 2.x documents it, compiled and run against `import Sharing`.

private struct Todo: Codable, Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var isDone = false
}

private enum Theme: String, Sendable { case light, dark }

extension URL {
  fileprivate static let todos = URL.temporaryDirectory.appending(component: "todos.json")
}

extension SharedReaderKey where Self == AppStorageKey<Bool>.Default {
  fileprivate static var isHapticsEnabled: Self {
    Self[.appStorage("isHapticsEnabled"), default: true]
  }
}

extension SharedReaderKey where Self == FileStorageKey<[Todo]>.Default {
  fileprivate static var todos: Self { Self[.fileStorage(.todos), default: []] }
}

/// A model holding shared state the way an app's feature does.
private final class TodosModel {
  @Shared(.todos) var todos
  @Shared(.appStorage("launchCount")) var launchCount = 0
  @Shared(.appStorage("theme")) var theme = Theme.light
  @Shared(.inMemory("draft")) var draft = ""
  @SharedReader(.isHapticsEnabled) var isHapticsEnabled

  func add(_ title: String) {
    $todos.withLock { $0.append(Todo(id: $0.count, title: title)) }
  }
}

@Suite struct DropInTests {
  @Test func persistedValuesFromTheDocsWorkUnchanged() async throws {
    let model = TodosModel()
    model.add("Milk")
    model.$launchCount.withLock { $0 += 1 }
    model.$theme.withLock { $0 = .dark }
    #expect(model.todos.map(\.title) == ["Milk"])
    #expect(model.isHapticsEnabled)

    let again = TodosModel()
    #expect(again.todos == model.todos)
    #expect(again.launchCount == 1)
    #expect(again.theme == .dark)

    try await model.$todos.save()
    try await model.$todos.load()
    #expect(!model.$todos.isLoading)
    #expect(model.$todos.loadError == nil)
    #expect(model.$todos.saveError == nil)
  }

  @Test func derivingSharedStateWorksUnchanged() throws {
    @Shared(.inMemory("todos")) var todos: [Todo] = [Todo(id: 1, title: "Eggs")]
    let rows: [Shared<Todo>] = Array($todos)
    rows[0].isDone.withLock { $0 = true }
    let todo = try #require(Shared($todos[id: 1]))
    #expect(todo.wrappedValue.isDone)
    let title: Shared<String> = todo.title
    let reader = SharedReader(title)
    title.withLock { $0 = "Free-range eggs" }
    #expect(reader.wrappedValue == "Free-range eggs")
  }

  @Test func dependenciesWorkUnchanged() {
    let storage = InMemoryStorage()
    withDependencies {
      $0.defaultInMemoryStorage = storage
      $0.defaultFileStorage = .inMemory
    } operation: {
      @Shared(.inMemory("count")) var count = 0
      $count.withLock { $0 += 1 }
    }
    withDependencies {
      $0.defaultInMemoryStorage = storage
    } operation: {
      @Shared(.inMemory("count")) var count = 0
      #expect(count == 1)
    }
    #expect(isTesting)
  }

  @Test func customKeysFromTheMigrationGuideCompile() async throws {
    struct ConstantKey: SharedReaderKey, Hashable {
      let value: Int
      func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
        continuation.resume(returning: value)
      }
      func subscribe(
        context: LoadContext<Int>,
        subscriber: SharedSubscriber<Int>
      ) -> SharedSubscription {
        SharedSubscription {}
      }
    }
    @SharedReader(ConstantKey(value: 42)) var answer = 0
    #expect(answer == 42)
    let required = try await SharedReader(require: ConstantKey(value: 7))
    #expect(required.wrappedValue == 7)
  }
}
