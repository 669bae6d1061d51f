import Foundation
import Sharing

// Every initialiser and key spelling of swift-sharing 2.x's public API that this package
// provides, written as swift-sharing's users write them; compiling is the test.

// MARK: - Keys declared on SharedReaderKey

extension SharedReaderKey where Self == InMemoryKey<Int> {
  fileprivate static var readerCount: Self { .inMemory("readerCount") }
}

extension SharedReaderKey where Self == InMemoryKey<String?> {
  fileprivate static var readerName: Self { .inMemory("readerName") }
}

extension SharedReaderKey where Self == InMemoryKey<Bool>.Default {
  fileprivate static var readerIsOn: Self { Self[.inMemory("readerIsOn"), default: true] }
}

extension SharedReaderKey where Self == InMemoryKey<String?>.Default {
  fileprivate static var readerNickname: Self { Self[.inMemory("readerNickname"), default: nil] }
}

extension SharedReaderKey where Self == UptimeKey {
  fileprivate static var uptime: Self { UptimeKey() }
}

extension SharedReaderKey where Self == UptimeKey.Default {
  fileprivate static var uptimeOrZero: Self { Self[UptimeKey(), default: 0] }
}

// MARK: - Keys declared on SharedKey

extension SharedKey where Self == InMemoryKey<Int> {
  fileprivate static var count: Self { .inMemory("count") }
}

extension SharedKey where Self == InMemoryKey<String?> {
  fileprivate static var name: Self { .inMemory("name") }
}

extension SharedKey where Self == InMemoryKey<Bool>.Default {
  fileprivate static var isOn: Self { Self[.inMemory("isOn"), default: true] }
}

extension SharedKey where Self == InMemoryKey<String?>.Default {
  fileprivate static var nickname: Self { Self[.inMemory("nickname"), default: nil] }
}

extension SharedKey where Self == AppStorageKey<Int>.Default {
  fileprivate static var launchCount: Self { Self[.appStorage("launchCount"), default: 0] }
}

/// A read-only key of the kind swift-sharing's docs write.
private struct UptimeKey: SharedReaderKey, Hashable {
  func load(context: LoadContext<Double>, continuation: LoadContinuation<Double>) {
    continuation.resume(returning: 1)
  }

  func subscribe(
    context: LoadContext<Double>,
    subscriber: SharedSubscriber<Double>
  ) -> SharedSubscription {
    SharedSubscription {}
  }
}

// MARK: - Property wrappers

private struct SharedPropertyWrappers {
  @Shared(.count) var count = 0
  @Shared(.name) var name: String?
  @Shared(.isOn) var isOn
  @Shared(.isOn) var isOnOverridden = false
  @Shared(.nickname) var nickname
  @Shared(.launchCount) var launchCount
  @Shared(.readerCount) var readerCount = 0
  @Shared(.readerName) var readerName: String?
  @Shared(.readerIsOn) var readerIsOn
  @Shared(.readerIsOn) var readerIsOnOverridden = false
  @Shared(.readerNickname) var readerNickname
  @Shared(.inMemory("inline")) var inline = 0
  @Shared(.inMemory("inlineOptional")) var inlineOptional: Int?
  @Shared(value: 0) var value
  @Shared var uninitialized: Int
}

private struct SharedReaderPropertyWrappers {
  @SharedReader(.count) var count = 0
  @SharedReader(.name) var name: String?
  @SharedReader(.isOn) var isOn
  @SharedReader(.isOn) var isOnOverridden = false
  @SharedReader(.nickname) var nickname
  @SharedReader(.launchCount) var launchCount
  @SharedReader(.readerCount) var readerCount = 0
  @SharedReader(.readerName) var readerName: String?
  @SharedReader(.readerIsOn) var readerIsOn
  @SharedReader(.readerIsOn) var readerIsOnOverridden = false
  @SharedReader(.readerNickname) var readerNickname
  @SharedReader(.uptime) var uptime = 0
  @SharedReader(.uptimeOrZero) var uptimeOrZero
  @SharedReader(.inMemory("inline")) var inline = 0
  @SharedReader(value: 0) var value
  @SharedReader var uninitialized: Int
}

// MARK: - Plain initialisers

private func sharedInitializers() async throws {
  let count = Shared(wrappedValue: 0, .count)
  let name = Shared(.name)
  let isOn = Shared(.isOn)
  let isOnOverridden = Shared(wrappedValue: false, .isOn)
  let nickname = Shared(.nickname)
  let readerCount = Shared(wrappedValue: 0, .readerCount)
  let readerName = Shared(.readerName)
  let readerIsOn = Shared(.readerIsOn)
  let readerNickname = Shared(.readerNickname)
  let value = Shared(value: 0)
  let projected = Shared(projectedValue: value)
  let unwrapped: Shared<String>? = Shared(name)
  let required: Shared<Int> = try await Shared(require: .count)
  let requiredFromReaderKey: Shared<Int> = try await Shared(require: .readerCount)
  try await count.load(.count)
  try await count.load(.readerCount)
  try await isOn.load(.isOn)
  try await count.load()
  try await count.save()
  _ = (count.isLoading, count.loadError, count.saveError)
  _ = (isOnOverridden, nickname, readerCount, readerName, readerIsOn, readerNickname)
  _ = (projected, unwrapped)
  _ = (required, requiredFromReaderKey)
}

private func sharedReaderInitializers() async throws {
  let count = SharedReader(wrappedValue: 0, .count)
  let name = SharedReader(.name)
  let isOn = SharedReader(.isOn)
  let isOnOverridden = SharedReader(wrappedValue: false, .isOn)
  let nickname = SharedReader(.nickname)
  let readerCount = SharedReader(wrappedValue: 0, .readerCount)
  let readerName = SharedReader(.readerName)
  let readerIsOn = SharedReader(.readerIsOn)
  let readerNickname = SharedReader(.readerNickname)
  let uptime = SharedReader(wrappedValue: 0, .uptime)
  let value = SharedReader(value: 0)
  let constant: SharedReader<Int> = .constant(1)
  let projected = SharedReader(projectedValue: value)
  let fromShared = SharedReader(Shared(value: 0))
  let unwrapped: SharedReader<String>? = SharedReader(name)
  let required: SharedReader<Int> = try await SharedReader(require: .count)
  let requiredFromReaderKey: SharedReader<Int> = try await SharedReader(require: .readerCount)
  try await count.load(.count)
  try await count.load(.readerCount)
  try await isOn.load(.isOn)
  try await uptime.load(.uptime)
  try await count.load()
  _ = (count.isLoading, count.loadError)
  _ = (isOnOverridden, nickname, readerCount, readerName, readerIsOn, readerNickname)
  _ = (constant, projected)
  _ = (fromShared, unwrapped, required, requiredFromReaderKey)
}

// MARK: - Testing a key of one's own

private func unitTestingAKey(_ key: some SharedKey<Int>) {
  key.load(context: .initialValue(0), continuation: LoadContinuation("load") { _ in })
  key.load(context: .userInitiated, continuation: LoadContinuation { _ in })
  key.save(1, context: .didSet, continuation: SaveContinuation("save") { _ in })
  key.save(1, context: .userInitiated, continuation: SaveContinuation { _ in })
  let subscription = key.subscribe(
    context: .initialValue(0),
    subscriber: SharedSubscriber(callback: { _ in }, onLoading: { _ in })
  )
  let plain = key.subscribe(context: .userInitiated, subscriber: SharedSubscriber { _ in })
  subscription.cancel()
  plain.cancel()
  let initialValue: Int? = LoadContext<Int>.initialValue(0).initialValue
  let defaultValue: Bool = InMemoryKey<Bool>.Default.isOn.initialValue
  _ = (initialValue, defaultValue)
}
