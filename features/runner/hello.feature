Feature: The runner: The hello handshake
  Before any vector, the runner asks the implementation who it is and which ops it offers,
  so that a partial port is told what it has not done yet rather than that it is wrong.

  @PROTO-HELLO-002
  Scenario: Vectors of ops missing from hello are unsupported, never passed
    Given the fake implementation "unsupported"
    When the runner runs every vector
    Then every outcome is "unsupported"
    And the report says "nothing was judged"
    And the exit code is 1

  @PROTO-HELLO-002
  Scenario: With --require-ops, vectors of ops missing from hello fail
    Given the fake implementation "unsupported"
    When the runner runs every vector with --require-ops
    Then every outcome is "unsupported"
    And the report says "0 passed, 9 failed"
    And the exit code is 1

  @PROTO-HELLO-003
  Scenario: An implementation that does not know hello is assumed to offer every op
    Given the fake implementation "nohello"
    When the runner runs every vector
    Then every outcome is "pass"

  @PROTO-HELLO-004
  Scenario: A vector at an implementation-defined point is judged by the declared choice
    Given the fake implementation "echo"
    And the implementation declares the choice "echo.case" as "upper"
    When the runner runs a vector whose expected output for "echo.case" = "upper" is its input
    Then its outcome is "pass"

  @PROTO-HELLO-004
  Scenario: A vector at a choice the implementation does not declare fails
    Given the fake implementation "echo"
    When the runner runs a vector whose expected output for "echo.case" = "upper" is its input
    Then its outcome is "fail"

  @PROTO-HELLO-005
  Scenario: An implementation that exits at start runs nothing
    Given the fake implementation "exitstart"
    When the runner runs every vector
    Then no vector is run
    And the exit code is 2
