import Observation
import SharingCore
import Synchronization
import Testing

struct Counter: Equatable, Sendable { var count = 0; var label = "" }

@Test func smoke() async throws {
  let shared = Shared(value: Counter())
  shared.withLock { $0.count += 1 }
  let count = shared.count
  count.withLock { $0 += 10 }
  #expect(shared.wrappedValue.count == 11)
  #expect(count.wrappedValue == 11)
  let reader = SharedReader(shared)
  #expect(reader.label.wrappedValue == "")
  let changed = Mutex(false)
  withObservationTracking { _ = count.wrappedValue } onChange: { changed.withLock { $0 = true } }
  shared.withLock { $0.label = "x" }
  #expect(changed.withLock { $0 })
  var iterator = shared.values.makeAsyncIterator()
  #expect(await iterator.next()?.count == 11)
  shared.withLock { $0.count = 12 }
  #expect(await iterator.next()?.count == 12)
  shared.withLock { $0.count = shared.wrappedValue.count + 1 }
  #expect(shared.wrappedValue.count == 13)
}
