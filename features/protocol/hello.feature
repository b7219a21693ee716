Feature: The hello handshake
  Before any vector, the runner asks the implementation who it is and which ops it offers,
  so that a partial port is told what it has not done yet rather than that it is wrong.

  Background:
    Given an implementation under test

  @PROTO-HELLO-001 @PROTO-HELLO-002
  Scenario: Hello names the implementation and its ops
    When it is sent the hello request
    Then the answer has an output
    And the answer's output member "protocol" is 1
    And the answer's output has the members "name", "version", "language" and "ops"
