import SharingDependencies
import Testing

/// Each test writes its own name into the cached notebook, lets the other tests run, and
/// checks that nobody else wrote into it. Swift Testing runs these in parallel.
@Suite struct TestIsolationTests {
  @Test func isolatedA() async { await expectPrivateNotebook("A") }
  @Test func isolatedB() async { await expectPrivateNotebook("B") }
  @Test func isolatedC() async { await expectPrivateNotebook("C") }
  @Test func isolatedD() async { await expectPrivateNotebook("D") }
  @Test func isolatedE() async { await expectPrivateNotebook("E") }
  @Test func isolatedF() async { await expectPrivateNotebook("F") }

  @Test func cachedValueIsSharedWithinOneTest() async {
    @Dependency(\.notebook) var first
    let second = await Task { @Sendable in
      @Dependency(\.notebook) var notebook
      return notebook
    }.value
    #expect(first === second)
  }

  private func expectPrivateNotebook(_ name: String) async {
    @Dependency(\.notebook) var notebook
    for _ in 0..<200 {
      notebook.write(name)
      await Task.yield()
    }
    #expect(Set(notebook.all) == [name])
    #expect(notebook.all.count == 200)
  }
}
