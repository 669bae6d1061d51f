import SharingCore
import Testing

@Suite struct SharedReaderTests {
  @Test func readerOfASharedValueSeesItsWrites() {
    let isOn = Shared(value: true)
    let reader = SharedReader(isOn)
    isOn.withLock { $0.toggle() }
    #expect(reader.wrappedValue == false)
  }

  @Test func constantReaderHoldsItsValue() {
    let reader = SharedReader(value: "hello")
    #expect(reader.wrappedValue == "hello")
    #expect(reader.count.wrappedValue == 5)
  }

  @Test func readerDerivesReadersForParts() {
    let data = Shared(value: SignUpData(email: "a@b.c"))
    let email: SharedReader<String> = SharedReader(data).email
    data.withLock { $0.email = "x@y.z" }
    #expect(email.wrappedValue == "x@y.z")
  }

  @Test func unwrappingAReaderOfNilGivesNil() {
    let user = SharedReader<User?>(value: nil)
    #expect(SharedReader(user) == nil)
  }

  @Test func unwrappedReaderFollowsItsBase() throws {
    let user = Shared<User?>(value: User(id: 1, name: "Blob"))
    let name = try #require(SharedReader(SharedReader(user))).name
    user.withLock { $0?.name = "Blob Jr." }
    #expect(name.wrappedValue == "Blob Jr.")
  }

  @Test func readTransformComputesFromTheCurrentValue() {
    let todos = Shared(value: [Todo(id: 1, title: "a")])
    let count = SharedReader(todos).read { $0.count }
    todos.withLock { $0.append(Todo(id: 2, title: "b")) }
    #expect(count.wrappedValue == 2)
  }

  @Test func readerProjectionAssignmentRedirectsCopies() {
    let reader = SharedReader(value: 1)
    let copy = reader
    reader.projectedValue = SharedReader(value: 2)
    #expect(copy.wrappedValue == 2)
  }
}
