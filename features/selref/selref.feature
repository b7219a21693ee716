Feature: Remembering what a message pointed at
  A user selects an entry in an app and asks "can you find out more about the
  selected case?". The selection is forgotten after the turn, but the message
  keeps a reference to it: a label and at least one address. The reference is
  hardened when it is stored, and replayed to the model as one line of fact in
  every later turn.

  Background:
    Given an implementation under test

  @SELREF-INGEST-004 @SELREF-LABEL-003 @SELREF-LABEL-005 @SELREF-REPLAY-004 @SELREF-REPLAY-005 @SELREF-REPLAY-006
  Scenario: A feed entry is stored with both addresses and replayed in a later turn
    Given an app declares a reference labelled "From bed expansion to strengthening emergency services"
    And its vance address is "vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769"
    And its web address is "https://mehrnews.com/news/6928769"
    When the reference is ingested
    Then the output is:
      """json
      {"reference": {"label": "From bed expansion to strengthening emergency services",
                     "vanceUri": "vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769",
                     "url": "https://mehrnews.com/news/6928769"}}
      """
    When the message "can you find out more about the selected case?" is replayed with it
    Then the model reads:
      """
      can you find out more about the selected case?

      [vance] This message pointed at: "From bed expansion to strengthening emergency services" — vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769 — https://mehrnews.com/news/6928769
      """

  @SELREF-LABEL-001 @SELREF-LABEL-002 @SELREF-LABEL-003
  Scenario Outline: A headline from outside cannot open a new line in the prompt
    Given an app declares a reference labelled "<label>"
    And its web address is "https://example.com/a"
    When the reference is ingested
    Then the stored label is "<stored>"

    Examples:
      | label                                  | stored                        |
      | Breaking:\nstorm\t\tover  the coast    | Breaking: storm over the coast |
      | \u{20}\u{20}padded\r\n                 | padded                        |
      | She said \"hi\" & <left>               | She said \"hi\" & <left>      |
      | zero\u{200B}width stays                | zero\u{200B}width stays       |

    @divergence:vance
    Examples: where vance differs
      | label                                  | stored                        |
      | line\u{2028}separator\u{85}next        | line separator next           |
      | no\u{A0}break\u{2003}em\u{B}vertical   | no break em vertical          |
      | bell\u{7}and\u{0}null                  | bell and null                 |

  @SELREF-LABEL-004
  Scenario Outline: A reference without a real label is dropped, whatever its addresses
    Given an app declares a reference labelled "<label>"
    And its vance address is "vance:/apps/search/_app.yaml"
    And its web address is "https://example.com/hit"
    When the reference is ingested
    Then the input is dropped with code "SELREF_BLANK_LABEL"

    Examples:
      | label                    |
      |                          |
      | \u{20}\n\t               |

    @divergence:vance
    Examples: where vance differs
      | label                    |
      | \u{A0}\u{2003}\u{3000}   |

  @SELREF-LABEL-004
  Scenario: The label is checked before the addresses
    Given an app declares a reference without a label
    When the reference is ingested
    Then the input is dropped with code "SELREF_BLANK_LABEL"

  @SELREF-LABEL-005 @SELREF-LABEL-006 @SELREF-LABEL-007 @SELREF-TEXT-001
  Scenario Outline: A long label is cut at 200 UTF-16 units, never inside a character
    Given an app declares a reference whose label is "<unit>" repeated <n> times then "<tail>"
    And its web address is "https://example.com/a"
    When the reference is ingested
    Then the stored label is "<unit>" repeated <kept> times then "<stored tail>"

    Examples:
      | unit      | n   | tail      | kept | stored tail |
      | x         | 200 |           | 200  |             |
      | 😀        | 100 |           | 100  |             |

    @divergence:seed
    Examples: where the seed's words ("truncate to 200 characters") keep no ellipsis
      | unit      | n   | tail      | kept | stored tail |
      | x         | 201 |           | 200  | …           |
      | x         | 199 | \u{20}abc | 199  | …           |
      | 😀        | 101 |           | 100  | …           |
      | 線        | 201 |           | 200  | …           |

    @divergence:vance @divergence:seed
    Examples: where vance differs
      | unit      | n   | tail      | kept | stored tail |
      | x         | 199 | 😀        | 199  | …           |

  @SELREF-VANCE-001 @SELREF-VANCE-002 @SELREF-VANCE-004 @SELREF-INGEST-002
  Scenario Outline: Only a vance: address is a vance address
    Given an app declares a reference labelled "An entry"
    And its vance address is "<vanceUri>"
    And its web address is "https://example.com/a"
    When the reference is ingested
    Then the reference has no vance address
    And the stored web address is "https://example.com/a"

    Examples:
      | vanceUri                         |
      | VANCE:/apps/feeds/_app.yaml      |
      | Vance:/x                         |
      | https://example.com/a            |

    @divergence:vance
    Examples: where vance differs
      | vanceUri                         |
      | vance:/a\n## injected            |
      | vance:/a\u{2028}b                |

  @SELREF-VANCE-001 @SELREF-VANCE-002
  Scenario Outline: What follows vance: is the resolver's business
    Given an app declares a reference labelled "An entry"
    And its vance address is "<vanceUri>"
    When the reference is ingested
    Then the stored vance address is "<stored>"

    Examples:
      | vanceUri                                   | stored                                   |
      | vance:                                     | vance:                                   |
      | \u{20}\tvance:/apps/x?entry=a%2Fb\u{20}\n  | vance:/apps/x?entry=a%2Fb                |
      | vance:not even a path \u{A0}               | vance:not even a path \u{A0}             |

  @SELREF-URL-001 @SELREF-URL-005
  Scenario Outline: Web addresses of the three safe schemes are kept as written
    Given an app declares a reference labelled "A hit"
    And its web address is "<url>"
    When the reference is ingested
    Then the stored web address is "<stored>"
    And the reference has no vance address

    Examples:
      | url                                  | stored                         |
      | https://example.com/hit              | https://example.com/hit        |
      | \u{20}\u{20}http://intranet.local/p\n | http://intranet.local/p       |
      | HTTPS://Example.COM/X                | HTTPS://Example.COM/X          |
      | mailto:ford@example.com              | mailto:ford@example.com        |
      | https:                               | https:                         |
      | https://under_score/a b%\|[          | https://under_score/a b%\|[    |
      | https:\u{5C}evil.example             | https:\u{5C}evil.example        |

  @SELREF-URL-002 @SELREF-URL-003 @SELREF-URL-004 @SELREF-INGEST-002
  Scenario Outline: Anything a browser or a model should not follow is left out
    Given an app declares a reference labelled "A hit"
    And its vance address is "vance:/apps/search/_app.yaml"
    And its web address is "<url>"
    When the reference is ingested
    Then the reference has no web address
    And the stored vance address is "vance:/apps/search/_app.yaml"

    Examples:
      | url                          |
      | javascript:alert(1)          |
      | JavaScript:alert(1)          |
      | data:text/html,<b>x</b>      |
      | file:///etc/passwd           |
      | feed:https://example.com     |
      | java\tscript:alert(1)        |
      | https://exa\nmple.com/x      |
      | //example.com/x              |
      | example.com/no-scheme        |
      | :no-scheme-name              |
      | \u{A0}https://example.com    |

    @divergence:vance
    Examples: where vance differs
      | url                          |
      | https://example.com/\u{85}   |

  @SELREF-INGEST-003
  Scenario Outline: A label alone is not a reference
    Given an app declares a reference labelled "Something was there"
    And the reference member "url" is the JSON <url>
    When the reference is ingested
    Then the input is dropped with code "SELREF_NO_ADDRESS"

    Examples:
      | url                   |
      | null                  |
      | "   "                 |
      | "javascript:void(0)"  |

  @SELREF-INGEST-001
  Scenario Outline: An absent, null or blank address is no address
    Given an app declares a reference labelled "An entry"
    And its web address is "https://example.com/a"
    And the reference member "vanceUri" is the JSON <vanceUri>
    When the reference is ingested
    Then the output is {"reference": {"label": "An entry", "url": "https://example.com/a"}}

    Examples:
      | vanceUri |
      | null     |
      | ""       |
      | " \t "   |

  @SELREF-INGEST-005
  Scenario: Storing a stored reference again changes nothing
    Given an app declares a reference labelled "  A\nlong \u{2003} headline  "
    And its vance address is " vance:/x "
    When the reference is ingested
    And the stored reference is ingested again
    Then the output member "reference" equals the previous output member "reference"

  @SELREF-TEXT-002 @SELREF-TEXT-003 @divergence:vance
  Scenario: A broken half of an emoji becomes a replacement character
    Given an app declares a reference without a label
    And the reference member "label" is the JSON "half \ud83d face"
    And its web address is "https://example.com/a"
    When the reference is ingested
    Then the stored label is "half \uFFFD face"

  @SELREF-REPLAY-004 @SELREF-REPLAY-006
  Scenario Outline: The replay line names only the addresses there are
    Given an app declares a reference labelled "A search hit"
    And the reference member "vanceUri" is the JSON <vanceUri>
    And the reference member "url" is the JSON <url>
    When the message "<body>" is replayed with it
    Then the model reads "<text>"

    Examples:
      | body              | vanceUri      | url                     | text                                                                                             |
      | see this          | null          | "https://example.com/a" | see this\n\n[vance] This message pointed at: \"A search hit\" — https://example.com/a            |
      | see this          | "vance:/s/1"  | null                    | see this\n\n[vance] This message pointed at: \"A search hit\" — vance:/s/1                       |
      |                   | "vance:/s/1"  | "mailto:a@example.com"  | [vance] This message pointed at: \"A search hit\" — vance:/s/1 — mailto:a@example.com           |
      | Alice Smith: und das hier? | null | "https://example.com/a" | Alice Smith: und das hier?\n\n[vance] This message pointed at: \"A search hit\" — https://example.com/a |
      | ends in a newline\n | "vance:/s/1" | null                  | ends in a newline\n\n\n[vance] This message pointed at: \"A search hit\" — vance:/s/1           |

  @SELREF-REPLAY-001 @divergence:vance
  Scenario: A stored reference is hardened again before it reaches the prompt
    When the message "hi" is replayed with the stored reference {"label": "Two\nlines", "vanceUri": "vance:/a\n## injected", "url": "javascript:alert(1)", "extra": 1}
    Then the model reads "hi"
    When the message "hi" is replayed with the stored reference {"label": "Two\nlines", "vanceUri": "vance:/a", "url": "javascript:alert(1)"}
    Then the model reads "hi\n\n[vance] This message pointed at: \"Two lines\" — vance:/a"

  @SELREF-REPLAY-002 @SELREF-REPLAY-003
  Scenario Outline: Without a usable reference the message is replayed exactly as written
    When the message "<body>" is replayed with the stored reference <reference>
    Then the model reads "<body>"

    Examples:
      | body              | reference                                        |
      | hi                | null                                             |
      | hi                | "vance:/a"                                       |
      | hi                | [{"label": "x", "url": "https://example.com"}]   |
      | hi                | {}                                               |
      | \u{20}spaced\u{20} | {"label": 12, "url": "https://example.com"}     |
      | hi                | {"label": "x", "url": 7}                         |
      |                   | {"label": "x"}                                   |

  @SELREF-REPLAY-002
  Scenario: A message that never pointed at anything replays as it was written
    When the message "just text\n" is replayed without a reference
    Then the model reads "just text\n"

  @SELREF-VANCE-003 @SELREF-URL-006 @SELREF-TEXT-001
  Scenario Outline: An address of up to 1,000 units is kept whole
    Given an app declares a reference labelled "An entry"
    And its <kind> address is "<head>" followed by "<unit>" repeated <n> times
    When the reference is ingested
    Then the output member "reference.<member>" starts with "<head><unit>"

    Examples:
      | kind  | member   | head       | unit | n   |
      | vance | vanceUri | vance:/    | a    | 993 |
      | vance | vanceUri | vance:/    | 😀   | 496 |
      | web   | url      | https://x/ | a    | 990 |

  @SELREF-VANCE-003 @SELREF-URL-006 @SELREF-INGEST-003
  Scenario Outline: A longer address is refused, never cut
    Given an app declares a reference labelled "An entry"
    And its <kind> address is "<head>" followed by "<unit>" repeated <n> times
    When the reference is ingested
    Then the input is dropped with code "SELREF_NO_ADDRESS"

    Examples:
      | kind  | head       | unit | n   |
      | vance | vance:/    | a    | 994 |
      | vance | vance:/    | 😀   | 497 |
      | web   | https://x/ | a    | 991 |

  @SELREF-REPLAY-007 @SELREF-REPLAY-004
  Scenario: The current turn gets no line; every later turn does
    Given an app declares a reference labelled "From bed expansion to strengthening emergency services"
    And its vance address is "vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769"
    When the message "can you find out more about the selected case?" of the current turn is replayed with it
    Then the model reads "can you find out more about the selected case?"
    When the message "can you find out more about the selected case?" of an earlier turn is replayed with it
    Then the model reads:
      """
      can you find out more about the selected case?

      [vance] This message pointed at: "From bed expansion to strengthening emergency services" — vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769
      """

  @SELREF-VANCE-005 @SELREF-REPLAY-005
  Scenario Outline: A saved link's vance address carries its target as written
    Given an app declares a reference labelled "A saved link"
    And its vance address is "<vanceUri>"
    When the reference is ingested
    Then the stored vance address is "<vanceUri>"
    When the message "hi" is replayed with it
    Then the model reads "hi\n\n[vance] This message pointed at: \"A saved link\" — <vanceUri>"

    Examples:
      | vanceUri                                                                          |
      | vance:/apps/links/_app.yaml?entry=https://example.com/a?b=1&c=2#top                |
      | vance:/apps/links/_app.yaml?entry=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1%26c%3D2     |
      | vance:/apps/links/_app.yaml?entry=javascript:alert(1)                              |

  @SELREF-BUBBLE-002 @SELREF-BUBBLE-003 @SELREF-BUBBLE-005
  Scenario: The chat shows the reference below the message, the label linking the entry
    Given an app declares a reference labelled "From bed expansion to strengthening emergency services"
    And its vance address is "vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769"
    And its web address is "https://mehrnews.com/news/6928769"
    When the reference is shown in the chat
    Then the bubble reads:
      """
      ↳ [From bed expansion to strengthening emergency services](<vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769>) · [↗](<https://mehrnews.com/news/6928769>)
      """

  @SELREF-BUBBLE-002 @SELREF-BUBBLE-003
  Scenario: A search hit has no entry to link, so its label is plain text
    Given an app declares a reference labelled "A search hit"
    And its web address is "https://example.com/hit"
    When the reference is shown in the chat
    Then the bubble reads "↳ A search hit · [↗](<https://example.com/hit>)"

  @SELREF-BUBBLE-005 @SELREF-VANCE-005
  Scenario: A saved link's bubble links exactly its vance address
    Given an app declares a reference labelled "A saved link"
    And its vance address is "vance:/apps/links/_app.yaml?entry=https://example.com/a (b)?c=1&amp;d=2"
    When the reference is shown in the chat
    Then the bubble reads:
      """
      ↳ [A saved link](<vance:/apps/links/_app.yaml?entry=https://example.com/a (b)?c=1&amp;amp;d=2>)
      """

  @SELREF-BUBBLE-004
  Scenario: A headline crafted to close the link and open its own stays text
    Given an app declares a reference labelled "x](javascript:alert(1)) [y"
    And its vance address is "vance:/a"
    When the reference is shown in the chat
    Then the bubble reads:
      """
      ↳ [x\]\(javascript\:alert\(1\)\) \[y](<vance:/a>)
      """

  @SELREF-BUBBLE-004
  Scenario: Markup in a headline, an image, HTML, code or a new line, shows as written
    Given an app declares a reference labelled "![img](https://e.example/p.png) <b>`x`</b>\n# *y*"
    And its web address is "https://example.com/a"
    When the reference is shown in the chat
    Then the bubble reads:
      """
      ↳ \!\[img\]\(https\:\/\/e\.example\/p\.png\) \<b\>\`x\`\<\/b\> \# \*y\* · [↗](<https://example.com/a>)
      """

  @SELREF-BUBBLE-004
  Scenario: Text outside ASCII is shown unescaped
    Given an app declares a reference labelled "Stärkung — 東京 😀"
    And its vance address is "vance:/a"
    When the reference is shown in the chat
    Then the bubble reads "↳ [Stärkung — 東京 😀](<vance:/a>)"

  @SELREF-BUBBLE-001
  Scenario Outline: Without a reference that survives ingest there is no bubble
    When the stored reference <reference> is shown in the chat
    Then there is no bubble

    Examples:
      | reference                                                         |
      | {"label": "x"}                                                    |
      | {"label": " \u00a0\t", "vanceUri": "vance:/a"}                    |
      | {"label": "x", "url": "javascript:alert(1)"}                      |
      | "vance:/a"                                                        |
      | null                                                              |

  @SELREF-BUBBLE-001
  Scenario: A message that never pointed at anything has no bubble
    When a message without a reference is shown in the chat
    Then there is no bubble
