import SharingDependencies
import Testing

@Suite struct PropagationTests {
  @Test func overridesReachUnstructuredTasks() async {
    let value = await withDependencies {
      $0.greeting = "task"
    } operation: {
      await Task {
        @Dependency(\.greeting) var greeting
        return greeting
      }.value
    }
    #expect(value == "task")
  }

  @Test func overridesReachAsyncLet() async {
    await withDependencies {
      $0.greeting = "async let"
    } operation: {
      async let child: String = {
        @Dependency(\.greeting) var greeting
        return greeting
      }()
      #expect(await child == "async let")
    }
  }

  @Test func overridesReachTaskGroupChildren() async {
    let values = await withDependencies {
      $0.greeting = "group"
    } operation: {
      await withTaskGroup(of: String.self) { group in
        for _ in 0..<4 {
          group.addTask {
            @Dependency(\.greeting) var greeting
            return greeting
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(values == Array(repeating: "group", count: 4))
  }

  @Test func overridesDoNotReachDetachedTasks() async {
    let value = await withDependencies {
      $0.greeting = "not detached"
    } operation: {
      await Task.detached {
        @Dependency(\.greeting) var greeting
        return greeting
      }.value
    }
    #expect(value == "test")
  }

  @Test func modelCreatedInOverrideKeepsValuesInsideLaterTasks() async {
    let model = withDependencies {
      $0.greeting = "captured"
    } operation: {
      GreeterModel()
    }
    let value = await Task.detached { model.greeting }.value
    #expect(value == "captured")
  }
}
