import SharingCore
import Testing

@Suite struct ContinuationTests {
  @Test func aLeakedLoadContinuationIsReportedInTheLoadWithTheKeyAsSwiftSharingNamesIt()
    async throws
  {
    try await withKnownIssue {
      @SharedReader(ForgetfulKey()) var value = 0
      try await $value.load()
      #expect(!$value.isLoading)
    } matching: { issue in
      issue.description.hasSuffix(
        """
        'ForgetfulKey()' leaked its continuation without one of its resume methods being \
        invoked. This will cause tasks waiting on it to resume immediately.
        """
      )
    }
  }

  @Test func aLeakedSaveContinuationIsReportedInTheSaveWithTheKeyAsSwiftSharingNamesIt()
    async throws
  {
    @Shared(ForgetfulKey()) var value = 0
    try await withKnownIssue {
      try await $value.save()
    } matching: { issue in
      issue.description.hasSuffix(
        """
        'ForgetfulKey()' leaked its continuation without one of its resume methods being \
        invoked. This will cause tasks waiting on it to resume immediately.
        """
      )
    }
  }

  @Test func aContinuationWithoutADescriptionIsNamedAsASharedKey() {
    withKnownIssue {
      _ = LoadContinuation<Int> { _ in }
      _ = SaveContinuation { _ in }
    } matching: { issue in
      issue.description.hasSuffix(
        """
        A shared key leaked its continuation without one of its resume methods being \
        invoked. This will cause tasks waiting on it to resume immediately.
        """
      )
    }
  }
}

/// A key that drops the continuations of its user-initiated loads and of its saves (a bug),
/// and prints as a key type without a description does.
private struct ForgetfulKey: SharedKey {
  var id: some Hashable { 0 }

  func load(context: LoadContext<Int>, continuation: LoadContinuation<Int>) {
    if case .initialValue = context { continuation.resumeReturningInitialValue() }
  }

  func subscribe(
    context: LoadContext<Int>,
    subscriber: SharedSubscriber<Int>
  ) -> SharedSubscription {
    SharedSubscription {}
  }

  func save(_ value: Int, context: SaveContext, continuation: SaveContinuation) {
    if case .didSet = context { continuation.resume() }
  }
}
