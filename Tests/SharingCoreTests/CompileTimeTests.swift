import SharingCore

// Pins overload resolution of the public API; compiling is the test.

private struct Feature {
  @Shared var count: Int
  @SharedReader var isOn: Bool
}

private func initializers(store: TestStore<Int>, optionals: TestStore<Int?>) async throws {
  @Shared(.test("count", store: store)) var count = 0
  @Shared(.test("optional", store: optionals)) var optional: Int?
  @SharedReader(.test("count", store: store)) var reader = 0
  @SharedReader(.testReader("count", store: store)) var readerFromReaderKey = 0
  let required: Shared<Int> = try await Shared(require: .test("count", store: store))
  let requiredReader: SharedReader<Int> = try await SharedReader(
    require: .test("count", store: store)
  )
  let defaulted = Shared(TestKey<Int>.Default[.test("count", store: store), default: 1])
  _ = Feature(count: $count, isOn: SharedReader(value: true))
  _ = (count, optional, reader, readerFromReaderKey, required, requiredReader, defaulted)
}

private func derivation(signUp: Shared<SignUpData>, todos: Shared<[Todo]>, user: Shared<User?>) {
  let phone: Shared<String> = signUp.phoneNumber
  let complete: SharedReader<Bool> = signUp.isComplete
  let unwrapped: Shared<User>? = Shared(user)
  let elements: [Shared<Todo>] = Array(todos)
  let positional: [Shared<Int>] = Array(Shared(value: [1, 2]))
  let positionalReaders: [SharedReader<Int>] = Array(SharedReader(value: [1, 2]))
  let element: Shared<Todo?> = todos[id: 1]
  let readOnly: SharedReader<SignUpData> = SharedReader(signUp)
  let computed: SharedReader<Int> = todos.read { $0.count }
  let values: SharedValues<[Todo]> = todos.values
  _ = (phone, complete, unwrapped, elements, element, readOnly, computed, values)
  _ = (positional, positionalReaders)
}

private func mutation(count: Shared<Int>) throws {
  count.withLock { $0 += 1 }
  let result: String = count.withLock { "\($0)" }
  struct Failure: Error {}
  try count.withLock { _ in throw Failure() }
  _ = result
}
