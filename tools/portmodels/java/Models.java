// Port models in Java 17 and Kotlin (issue 45): each model is the reference behind a thin proxy
// that does one behaviour the way a Java or Kotlin port would, with the built-in called at run
// time (kotlin-stdlib's compiled functions for the Kotlin rows). A model's code below carries a
// header saying the built-in or slip it models and the requirement it breaks.
//
// Usage (the jars come from tools/portmodels/java/jars.sh, which with --compiled also compiles
// this file once per version into its cache; a single-file source launch, java -cp
// "$(tools/portmodels/java/jars.sh)" tools/portmodels/java/Models.java MODEL, works too):
//   CONFORM_REFERENCE="conform serve --stdio" \
//     java -cp "$(tools/portmodels/java/jars.sh --compiled)" Models MODEL
//   java -cp "$(tools/portmodels/java/jars.sh --compiled)" Models --list
// MODEL speaks protocol v1 on stdin/stdout. The reference runs as a child (the command in
// CONFORM_REFERENCE, split at spaces); every request line is forwarded to it as written and its
// answer written back as written, except where the model's slip applies: there the model
// answers itself.

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.internal.LazilyParsedNumber;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Models {
  static final String COMMAND = "java -cp \"$(tools/portmodels/java/jars.sh --compiled)\" Models";

  /** A model's slip: the answer it gives itself, or null to forward the raw line. */
  interface Slip {
    JsonObject answer(JsonObject req, String raw) throws Exception;
  }

  record Model(String name, String row, String kase, String klass, List<String> ops, List<String> reqs, String slip, Slip fn) {}

  static final Map<String, Model> MODELS = new LinkedHashMap<>();

  static void row(String row, String op, String klass, String req, String slip, Slip fn) {
    MODELS.put(row + "@" + op, new Model(row + "@" + op, row, null, klass, List.of(op), List.of(req), slip, fn));
  }

  static void kase(String kase, String op, String req, String slip, Slip fn) {
    MODELS.put(kase + "@" + op, new Model(kase + "@" + op, null, kase, null, List.of(op), List.of(req), slip, fn));
  }

  // ---------------------------------------------------------------- the reference child

  static Process child;
  static OutputStream childIn;
  static InputStream childOut;
  static OutputStream out;

  static byte[] readLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\n') return b.toByteArray();
      b.write(c);
    }
    return b.size() == 0 ? null : b.toByteArray();
  }

  /** Sends one line to the reference and returns its answer line. */
  static byte[] refRaw(byte[] line) throws IOException {
    childIn.write(line);
    childIn.write('\n');
    childIn.flush();
    byte[] a = readLine(childOut);
    if (a == null) throw new IOException("the reference ended");
    return a;
  }

  static JsonObject current; // the request being served, forwarded as its raw line
  static byte[] currentLine;

  static JsonObject ref(JsonObject req) throws Exception {
    if (req == current) return read(new String(refRaw(currentLine), StandardCharsets.UTF_8)).getAsJsonObject();
    return read(new String(refRaw(write(req).getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8)).getAsJsonObject();
  }

  /** The reference's answer for the same request with another input. */
  static JsonObject ref(JsonObject req, JsonObject input) throws Exception {
    JsonObject r = req.deepCopy();
    r.add("input", input);
    return ref(r);
  }

  // ---------------------------------------------------------------- JSON: read strictly, write ASCII

  static final class Duplicate extends RuntimeException {}

  /** Reads one JSON value strictly; a member named twice throws Duplicate. */
  static JsonElement read(String s) throws IOException {
    JsonReader r = new JsonReader(new StringReader(s));
    r.setStrictness(Strictness.STRICT);
    JsonElement e = value(r);
    if (r.peek() != JsonToken.END_DOCUMENT) throw new IOException("trailing data");
    return e;
  }

  static JsonElement value(JsonReader r) throws IOException {
    switch (r.peek()) {
      case BEGIN_OBJECT: {
        JsonObject o = new JsonObject();
        r.beginObject();
        while (r.hasNext()) {
          String k = r.nextName();
          if (o.has(k)) throw new Duplicate();
          o.add(k, value(r));
        }
        r.endObject();
        return o;
      }
      case BEGIN_ARRAY: {
        JsonArray a = new JsonArray();
        r.beginArray();
        while (r.hasNext()) a.add(value(r));
        r.endArray();
        return a;
      }
      case STRING:
        return new JsonPrimitive(r.nextString());
      case NUMBER:
        return new JsonPrimitive(new LazilyParsedNumber(r.nextString()));
      case BOOLEAN:
        return new JsonPrimitive(r.nextBoolean());
      case NULL:
        r.nextNull();
        return JsonNull.INSTANCE;
      default:
        throw new IOException("unexpected " + r.peek());
    }
  }

  /** Writes JSON with every non-ASCII unit escaped, so a lone surrogate survives; numbers as spelt. */
  static String write(JsonElement e) {
    StringBuilder b = new StringBuilder();
    write(e, b);
    return b.toString();
  }

  static void write(JsonElement e, StringBuilder b) {
    if (e.isJsonObject()) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
        if (!first) b.append(',');
        first = false;
        str(m.getKey(), b);
        b.append(':');
        write(m.getValue(), b);
      }
      b.append('}');
    } else if (e.isJsonArray()) {
      b.append('[');
      boolean first = true;
      for (JsonElement x : e.getAsJsonArray()) {
        if (!first) b.append(',');
        first = false;
        write(x, b);
      }
      b.append(']');
    } else if (e.isJsonNull()) {
      b.append("null");
    } else {
      JsonPrimitive p = e.getAsJsonPrimitive();
      if (p.isString()) str(p.getAsString(), b);
      else if (p.isBoolean()) b.append(p.getAsBoolean());
      else b.append(p.getAsNumber() instanceof LazilyParsedNumber ? p.getAsNumber().toString() : p.toString());
    }
  }

  static void str(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c >= 0x7F) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }

  // ---------------------------------------------------------------- helpers of the sites

  static JsonObject obj(JsonElement e) {
    return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
  }

  static String string(JsonObject o, String k) {
    JsonElement e = o == null ? null : o.get(k);
    return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isString() ? e.getAsString() : null;
  }

  static JsonObject output(JsonObject answer) {
    return obj(answer.get("output"));
  }

  static JsonObject answer(JsonObject output) {
    JsonObject a = new JsonObject();
    a.add("output", output);
    return a;
  }

  /** A lone surrogate as the reference reads it: U+FFFD. */
  static String wellFormed(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        b.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        b.append('\uFFFD');
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  // ---------------------------------------------------------------- site: quote.normalize's collapse

  // The port collapses each run of the code points its built-in calls white space to one U+0020
  // (QUOTE-ANCHOR-003: the 25 code points of JavaScript's \s).
  static Slip normalize(IntPredicate space) {
    return (req, raw) -> {
      JsonObject a = ref(req);
      String t = string(obj(req.get("input")), "text");
      if (t == null || output(a) == null || string(output(a), "text") == null) return a;
      StringBuilder b = new StringBuilder();
      boolean run = false;
      String w = wellFormed(t);
      for (int i = 0; i < w.length(); ) {
        int cp = w.codePointAt(i);
        i += Character.charCount(cp);
        if (space.test(cp)) {
          if (!run) b.append(' ');
          run = true;
        } else {
          b.appendCodePoint(cp);
          run = false;
        }
      }
      JsonObject o = new JsonObject();
      o.addProperty("text", b.toString());
      return answer(o);
    };
  }

  static IntPredicate matches(Pattern p) {
    return cp -> p.matcher(new String(Character.toChars(cp))).matches();
  }

  // ---------------------------------------------------------------- site: quote.comment's trim

  // The port trims the comment with its built-in and drops it when empty (QUOTE-COMPOSE-001: the
  // 25 whitespace code points removed from both ends).
  static Slip comment(UnaryOperator<String> trim) {
    return (req, raw) -> {
      JsonObject a = ref(req);
      String c = string(obj(req.get("input")), "comment");
      JsonObject cit = obj(output(a) == null ? null : output(a).get("citation"));
      if (c == null || cit == null) return a;
      String t = trim.apply(c);
      JsonObject o = new JsonObject();
      for (Map.Entry<String, JsonElement> m : cit.entrySet()) {
        if (m.getKey().equals("comment")) continue;
        o.add(m.getKey(), m.getValue());
        if (m.getKey().equals("text") && !t.isEmpty()) o.addProperty("comment", wellFormed(t));
      }
      JsonObject out = new JsonObject();
      out.add("citation", o);
      return answer(out);
    };
  }

  // ---------------------------------------------------------------- site: marker.locate's line ranges

  /** The spec's line number (MARKER-LOCATE-007): ASCII digits; a leading zero or a huge one is -1. */
  static Long specNumber(String s) {
    if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) return null;
    if (s.charAt(0) == '0' || s.length() > 18) return -1L;
    return Long.parseLong(s);
  }

  /** The spec's lines (MARKER-LOCATE-006): split at LF, a CR before it dropped, no line after a final LF. */
  static List<String> specLines(String s) {
    List<String> out = new ArrayList<>();
    if (s.isEmpty()) return out;
    if (s.endsWith("\n")) s = s.substring(0, s.length() - 1);
    for (String l : s.split("\n", -1)) out.add(l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
    return out;
  }

  // The port resolves "L<n>" and "L<n>-L<m>" over a string value, reading each number with
  // number (null: malformed) and splitting the value with lines.
  static Slip locate(Function<String, List<String>> lines, Function<String, Long> number) {
    return (req, raw) -> {
      JsonObject a = ref(req);
      JsonObject in = obj(req.get("input"));
      String loc = string(in, "locator"), v = string(in, "value");
      JsonObject o = output(a);
      if (loc == null || v == null || !loc.startsWith("L") || o == null || o.has("rejected")) return a;
      String first = loc.substring(1), last = first;
      int dash = first.indexOf("-L");
      if (dash >= 0) {
        last = first.substring(dash + 2);
        first = first.substring(0, dash);
      }
      Long n = number.apply(first), k = number.apply(last);
      JsonObject r = new JsonObject();
      if (n == null || k == null) {
        r.addProperty("malformed", true);
        r.addProperty("resolved", false);
        return answer(r);
      }
      List<String> ls = lines.apply(wellFormed(v));
      if (n < 1 || n > k || k > ls.size()) {
        r.addProperty("resolved", false);
        return answer(r);
      }
      JsonArray arr = new JsonArray();
      for (String l : ls.subList((int) (long) n - 1, (int) (long) k)) arr.add(l);
      r.add("lines", arr);
      r.addProperty("resolved", true);
      return answer(r);
    };
  }

  /** A reader of a line number by an integer parser: a NumberFormatException is malformed. */
  static Function<String, Long> parser(Function<String, Long> parse) {
    return s -> {
      try {
        return parse.apply(s);
      } catch (NumberFormatException e) {
        return null;
      }
    };
  }

  // ---------------------------------------------------------------- site: marker.locate's user-origin check

  // The port tests a data part id for the user-origin prefixes with its built-in comparison
  // (MARKER-STRIP-004: compared without regard to ASCII case); a prefix it matches is then the
  // reference's, spelt in ASCII.
  interface Prefix {
    int length(String id, String prefix); // the length of id's prefix the built-in matches, or -1
  }

  static Slip userOrigin(Prefix match) {
    return (req, raw) -> {
      JsonObject in = obj(req.get("input"));
      String id = string(in, "data_part_id");
      if (id == null) return null;
      for (String p : new String[] {"user_data_", "user_text_"}) {
        int n = match.length(id, p);
        if (n >= 0) {
          JsonObject i = in.deepCopy();
          i.addProperty("data_part_id", p + id.substring(n));
          return ref(req, i);
        }
      }
      return null;
    };
  }

  /** A prefix matched by an equality of two strings, tried at each length. */
  static Prefix byEquality(java.util.function.BiPredicate<String, String> eq) {
    return (id, p) -> {
      for (int n = 1; n <= id.length(); n++) if (eq.test(id.substring(0, n), p)) return n;
      return -1;
    };
  }

  // ---------------------------------------------------------------- site: quote.format's path

  // The port percent-encodes the ids of the href's path with its built-in (QUOTE-LINK-010: safe
  // "-_.~", every other byte as %XX).
  static Slip formatPath(UnaryOperator<String> enc) {
    return (req, raw) -> {
      JsonObject a = ref(req);
      JsonObject o = output(a);
      JsonObject cit = obj(obj(req.get("input")) == null ? null : obj(req.get("input")).get("citation"));
      String href = string(o, "href"), link = string(o, "link");
      if (href == null || link == null || cit == null) return a;
      int q = href.indexOf('?');
      String base = "t3-citation://v1/";
      if (!href.startsWith(base) || q < 0) return a;
      List<String> ids = new ArrayList<>();
      for (String k : new String[] {"environmentId", "threadId", "messageId"}) {
        String s = string(cit, k);
        if (s == null) return a;
        ids.add(enc.apply(s));
      }
      String h = base + String.join("/", ids) + href.substring(q);
      JsonObject r = o.deepCopy();
      r.addProperty("href", h);
      r.addProperty("link", link.replace(href, h));
      return answer(r);
    };
  }

  // ---------------------------------------------------------------- site: quote.expand's block

  // The port writes each string of the expansion block's data with its JSON library
  // (QUOTE-COMPOSE-016, QUOTE-COMPOSE-017: the escapes of the block).
  static Slip expandBlock(UnaryOperator<String> toJson) {
    return (req, raw) -> {
      JsonObject a = ref(req);
      String t = string(output(a), "text");
      if (t == null) return a;
      int open = t.indexOf("<assistant_citations>"), close = t.lastIndexOf("</assistant_citations>");
      if (open < 0 || close < open) return a;
      int start = t.indexOf("\n[", open);
      if (start < 0 || start > close) return a;
      StringBuilder b = new StringBuilder(t.substring(0, start));
      for (int i = start; i < close; ) {
        char c = t.charAt(i);
        if (c != '"') {
          b.append(c);
          i++;
          continue;
        }
        int j = i + 1;
        while (t.charAt(j) != '"') j += t.charAt(j) == '\\' ? 2 : 1;
        b.append(toJson.apply(read(t.substring(i, j + 1)).getAsString()));
        i = j + 1;
      }
      b.append(t.substring(close));
      JsonObject r = output(a).deepCopy();
      r.addProperty("text", b.toString());
      return answer(r);
    };
  }

  // ---------------------------------------------------------------- site: selref.ingest's address controls

  // The port refuses an address holding a control by its built-in (SELREF-VANCE-004,
  // SELREF-URL-002: Cc, U+2028 and U+2029); an address it keeps goes on to the reference, where
  // each code point the reference alone takes for a control is stood for by a placeholder.
  static final Map<Integer, Boolean> refControl = new HashMap<>();

  static boolean refTakesForControl(JsonObject req, int cp) throws Exception {
    Boolean b = refControl.get(cp);
    if (b == null) {
      JsonObject in = new JsonObject();
      in.addProperty("label", "L");
      in.addProperty("url", "https://example.com/x" + new String(Character.toChars(cp)) + "y");
      JsonObject o = output(ref(req, in));
      b = o != null && o.has("dropped");
      refControl.put(cp, b);
    }
    return b;
  }

  static Slip ingestControls(IntPredicate control) {
    return (req, raw) -> {
      JsonObject in = obj(req.get("input"));
      if (in == null) return null;
      Map<String, String> back = new HashMap<>();
      JsonObject i = in.deepCopy();
      int next = 0x4E00;
      for (String k : new String[] {"url", "vanceUri"}) {
        String s = string(in, k);
        if (s == null) continue;
        StringBuilder b = new StringBuilder();
        for (int p = 0; p < s.length(); ) {
          int cp = s.codePointAt(p);
          p += Character.charCount(cp);
          if (cp >= 0x80 && !control.test(cp) && refTakesForControl(req, cp)) {
            while (s.indexOf(next) >= 0 || back.containsKey(String.valueOf((char) next))) next++;
            String ph = String.valueOf((char) next++);
            back.put(ph, new String(Character.toChars(cp)));
            b.append(ph);
          } else {
            b.appendCodePoint(cp);
          }
        }
        i.addProperty(k, b.toString());
      }
      if (back.isEmpty()) return null;
      JsonObject a = ref(req, i);
      JsonObject r = obj(output(a) == null ? null : output(a).get("reference"));
      if (r != null) {
        for (String k : new String[] {"url", "vanceUri"}) {
          String s = string(r, k);
          if (s == null) continue;
          for (Map.Entry<String, String> e : back.entrySet()) s = s.replace(e.getKey(), e.getValue());
          r.addProperty(k, s);
        }
      }
      return a;
    };
  }

  // ---------------------------------------------------------------- structural cases

  // nested-member-ignored: a typed decoder of the citation (as Gson, or Jackson with
  // FAIL_ON_UNKNOWN_PROPERTIES off, reads into a class) drops the members it has no field for,
  // so a citation with an unknown member is taken for a valid one (QUOTE-COMPOSE-004: a
  // citation holds exactly the members of its schema).
  static final Set<String> citationFields = Set.of("version", "environmentId", "threadId", "messageId", "text", "comment", "start", "end", "prefix", "suffix");

  static Slip nestedIgnored(String member) {
    return (req, raw) -> {
      JsonObject in = obj(req.get("input"));
      JsonObject cit = obj(in == null ? null : in.get(member));
      if (cit == null || citationFields.containsAll(cit.keySet())) return null;
      JsonObject c = new JsonObject();
      for (Map.Entry<String, JsonElement> m : cit.entrySet()) if (citationFields.contains(m.getKey())) c.add(m.getKey(), m.getValue());
      JsonObject i = in.deepCopy();
      i.add(member, c);
      return ref(req, i);
    };
  }

  // envelope-typed: the envelope is decoded by Gson into a class whose id is a long, so a string
  // id of digits comes back as a number and any other string id makes the line a bad request
  // (PROTO-ID-001: the id is echoed with the same type and value).
  static final class Envelope {
    long id;
    String op;
    JsonObject input;
  }

  static Slip envelopeTyped() {
    return (req, raw) -> {
      Envelope env;
      try {
        env = new Gson().fromJson(raw, Envelope.class);
      } catch (RuntimeException e) {
        JsonObject a = new JsonObject();
        a.add("id", JsonNull.INSTANCE);
        JsonObject err = new JsonObject();
        err.addProperty("kind", "bad_request");
        err.addProperty("message", "the envelope: " + e.getMessage());
        a.add("error", err);
        return a;
      }
      JsonObject a = ref(req);
      a.addProperty("id", env.id);
      return a;
    };
  }

  // ---------------------------------------------------------------- the models

  static final Gson gson = new Gson();
  static final ObjectMapper jackson = new ObjectMapper();

  static {
    MODELS.put("identity", new Model("identity", null, null, null, List.of(), List.of(), "forwards every request to the reference unchanged", (req, raw) -> null));

    // Java's Character.isWhitespace(int): also U+001C-U+001F, not U+00A0, U+2007, U+202F, U+FEFF.
    row("java:Character.isWhitespace", "quote.normalize", "quote.space", "QUOTE-ANCHOR-003",
        "collapses the runs of Character.isWhitespace code points instead of quote's whitespace",
        normalize(Character::isWhitespace));
    // Java's Character.isSpaceChar(int): Unicode Zs, Zl, Zp: not U+0009-U+000D, not U+FEFF.
    row("java:Character.isSpaceChar", "quote.normalize", "quote.space", "QUOTE-ANCHOR-003",
        "collapses the runs of Character.isSpaceChar code points instead of quote's whitespace",
        normalize(Character::isSpaceChar));
    // Java's Pattern \s: ASCII white space only.
    row("java:Pattern.\\s", "quote.normalize", "quote.space", "QUOTE-ANCHOR-003",
        "collapses the runs Pattern.compile(\"\\\\s\") matches instead of quote's whitespace",
        normalize(matches(Pattern.compile("\\s"))));
    // Java's Pattern \s with UNICODE_CHARACTER_CLASS: White_Space: U+0085 too, not U+FEFF.
    row("java:Pattern.\\s(UNICODE_CHARACTER_CLASS)", "quote.normalize", "quote.space", "QUOTE-ANCHOR-003",
        "collapses the runs Pattern.compile(\"\\\\s\", UNICODE_CHARACTER_CLASS) matches instead of quote's whitespace",
        normalize(matches(Pattern.compile("\\s", Pattern.UNICODE_CHARACTER_CLASS))));
    // Kotlin's Char.isWhitespace(): also U+001C-U+001F, not U+FEFF (a Kotlin port tests each char).
    row("kotlin:Char.isWhitespace", "quote.normalize", "quote.space", "QUOTE-ANCHOR-003",
        "collapses the runs of chars Kotlin's Char.isWhitespace() accepts instead of quote's whitespace",
        normalize(cp -> cp <= 0xFFFF && kotlin.text.CharsKt.isWhitespace((char) cp)));

    // Java's String.trim(): every char up to U+0020, nothing beyond.
    row("java:String.trim", "quote.comment", "quote.trim", "QUOTE-COMPOSE-001",
        "trims the comment with String.trim()", comment(String::trim));
    // Java's String.strip(): Character.isWhitespace at both ends.
    row("java:String.strip", "quote.comment", "quote.trim", "QUOTE-COMPOSE-001",
        "trims the comment with String.strip()", comment(String::strip));
    // Kotlin's String.trim(): Char.isWhitespace at both ends.
    row("kotlin:String.trim", "quote.comment", "quote.trim", "QUOTE-COMPOSE-001",
        "trims the comment with Kotlin's String.trim()", comment(s -> kotlin.text.StringsKt.trim((CharSequence) s).toString()));

    // Java's String.lines(): a lone CR ends a line too.
    row("java:String.lines", "marker.locate", "marker.line", "MARKER-LOCATE-006",
        "splits the value into lines with String.lines()", locate(s -> s.lines().toList(), Models::specNumber));
    // Java's split("\\R"): every Unicode line break, and "" is one empty line.
    row("java:split(\"\\\\R\")", "marker.locate", "marker.line", "MARKER-LOCATE-006",
        "splits the value into lines with s.split(\"\\\\R\")", locate(s -> Arrays.asList(s.split("\\R")), Models::specNumber));
    // Java's split("\n"): a CR before LF stays in the line, and "" is one empty line.
    row("java:split(\"\\n\")", "marker.locate", "marker.line", "MARKER-LOCATE-006",
        "splits the value into lines with s.split(\"\\n\")", locate(s -> Arrays.asList(s.split("\n")), Models::specNumber));
    // Kotlin's CharSequence.lines(): CR ends a line, a final terminator starts an empty line.
    row("kotlin:CharSequence.lines", "marker.locate", "marker.line", "MARKER-LOCATE-006",
        "splits the value into lines with Kotlin's lines()", locate(s -> kotlin.text.StringsKt.lines(s), Models::specNumber));

    // Java's Character.isDigit: every Nd digit, read by Character.digit.
    row("java:Character.isDigit", "marker.locate", "marker.digit", "MARKER-LOCATE-007",
        "reads a locator's line number as Character.isDigit chars valued by Character.digit",
        locate(Models::specLines, s -> {
          if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) return null;
          if (Character.digit(s.charAt(0), 10) == 0 || s.length() > 18) return -1L;
          long n = 0;
          for (char c : s.toCharArray()) n = n * 10 + Character.digit(c, 10);
          return n;
        }));
    // Java's Pattern \d with UNICODE_CHARACTER_CLASS: every Nd digit, then Long.parseLong.
    Pattern dU = Pattern.compile("\\d+", Pattern.UNICODE_CHARACTER_CLASS);
    row("java:Pattern.\\d(UNICODE_CHARACTER_CLASS)", "marker.locate", "marker.digit", "MARKER-LOCATE-007",
        "matches a locator's line number with Pattern.compile(\"\\\\d+\", UNICODE_CHARACTER_CLASS), then Long.parseLong",
        locate(Models::specLines, parser(s -> {
          if (!dU.matcher(s).matches()) throw new NumberFormatException(s);
          if (s.charAt(0) == '0' || s.length() > 18) return -1L;
          return Long.parseLong(s); // a digit beyond the BMP matches \\d but is no char parseLong reads: malformed
        })));
    // Java's Integer.parseInt: signs, leading zeros and Unicode digits accepted.
    row("java:Integer.parseInt", "marker.locate", "marker.line-number", "MARKER-LOCATE-007",
        "reads a locator's line number with Integer.parseInt", locate(Models::specLines, parser(s -> (long) Integer.parseInt(s))));
    // Java's Long.parseLong: signs, leading zeros and Unicode digits accepted.
    row("java:Long.parseLong", "marker.locate", "marker.line-number", "MARKER-LOCATE-007",
        "reads a locator's line number with Long.parseLong", locate(Models::specLines, parser(Long::parseLong)));
    // Kotlin's String.toIntOrNull(): signs, leading zeros and Unicode digits accepted.
    row("kotlin:String.toIntOrNull", "marker.locate", "marker.line-number", "MARKER-LOCATE-007",
        "reads a locator's line number with Kotlin's toIntOrNull()",
        locate(Models::specLines, s -> {
          Integer n = kotlin.text.StringsKt.toIntOrNull(s);
          return n == null ? null : (long) n;
        }));

    // Java's equalsIgnoreCase: U+017F matches s (and U+0130, U+0131 i, U+212A k).
    row("java:equalsIgnoreCase", "marker.locate", "marker.user-origin", "MARKER-STRIP-004",
        "tests the user-origin prefixes with equalsIgnoreCase", userOrigin(byEquality(String::equalsIgnoreCase)));
    // Java's regionMatches(true, ...): as equalsIgnoreCase.
    row("java:regionMatches(true)", "marker.locate", "marker.user-origin", "MARKER-STRIP-004",
        "tests the user-origin prefixes with regionMatches(true, ...)",
        userOrigin((id, p) -> id.regionMatches(true, 0, p, 0, p.length()) ? p.length() : -1));
    // Java's toUpperCase(Locale.ROOT): U+017F is S, U+00DF SS, the ligatures their letters.
    row("java:toUpperCase(Locale.ROOT)", "marker.locate", "marker.user-origin", "MARKER-STRIP-004",
        "tests the user-origin prefixes on id.toUpperCase(Locale.ROOT)",
        userOrigin(byEquality((a, b) -> a.toUpperCase(java.util.Locale.ROOT).equals(b.toUpperCase(java.util.Locale.ROOT)))));
    // Java's Pattern CASE_INSENSITIVE | UNICODE_CASE: Unicode simple folding, U+017F is s.
    row("java:Pattern.CASE_INSENSITIVE|UNICODE_CASE", "marker.locate", "marker.user-origin", "MARKER-STRIP-004",
        "tests the user-origin prefixes with Pattern.compile(prefix, CASE_INSENSITIVE | UNICODE_CASE)",
        userOrigin((id, p) -> {
          Matcher m = Pattern.compile(Pattern.quote(p), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(id);
          return m.lookingAt() ? m.end() : -1;
        }));
    // Kotlin's String.equals(ignoreCase = true): as equalsIgnoreCase.
    row("kotlin:String.equals(ignoreCase=true)", "marker.locate", "marker.user-origin", "MARKER-STRIP-004",
        "tests the user-origin prefixes with Kotlin's equals(ignoreCase = true)",
        userOrigin(byEquality((a, b) -> kotlin.text.StringsKt.equals(a, b, true))));

    // Gson's toJson: escapes ' and = and U+2028, U+2029.
    row("java:Gson.toJson", "quote.expand", "quote.json", "QUOTE-COMPOSE-016",
        "writes the strings of the expansion block with new Gson().toJson(s)", expandBlock(gson::toJson));
    // Jackson's writeValueAsString: no escape of < > &, upper-case hexadecimal.
    row("java:Jackson.writeValueAsString", "quote.expand", "quote.json", "QUOTE-COMPOSE-017",
        "writes the strings of the expansion block with new ObjectMapper().writeValueAsString(s)",
        expandBlock(s -> {
          try {
            return jackson.writeValueAsString(s);
          } catch (Exception e) {
            throw new RuntimeException(e);
          }
        }));

    // Java's URLEncoder.encode: space as +, * kept, ~ encoded.
    row("java:URLEncoder.encode", "quote.format", "quote.path", "QUOTE-LINK-010",
        "percent-encodes the href's ids with URLEncoder.encode(s, UTF_8)", formatPath(s -> URLEncoder.encode(s, StandardCharsets.UTF_8)));

    // Java's Character.isISOControl: U+0000-U+001F and U+007F-U+009F only, not U+2028, U+2029.
    row("java:Character.isISOControl", "selref.ingest", "selref.control", "SELREF-URL-002",
        "finds the address controls with Character.isISOControl", ingestControls(Character::isISOControl));

    kase("nested-member-ignored", "quote.comment", "QUOTE-COMPOSE-004",
        "decodes the citation into a typed class, dropping the members it has no field for", nestedIgnored("citation"));
    kase("envelope-typed", "quote.normalize", "PROTO-ID-001",
        "decodes the envelope into a class with a long id: a string id comes back a number or refused", envelopeTyped());
  }

  // ---------------------------------------------------------------- main

  static String list(Model m) {
    JsonObject o = new JsonObject();
    o.addProperty("model", m.name);
    o.add("row", m.row == null ? JsonNull.INSTANCE : new JsonPrimitive(m.row));
    if (m.kase != null) o.addProperty("case", m.kase);
    o.add("class", m.klass == null ? JsonNull.INSTANCE : new JsonPrimitive(m.klass));
    JsonArray ops = new JsonArray(), reqs = new JsonArray();
    m.ops.forEach(ops::add);
    m.reqs.forEach(reqs::add);
    o.add("ops", ops);
    o.add("requirements", reqs);
    o.addProperty("slip", m.slip);
    if ("envelope-typed".equals(m.kase)) o.addProperty("check", "features"); // no vector holds an envelope
    o.addProperty("command", COMMAND + " " + m.name);
    return new Gson().newBuilder().disableHtmlEscaping().serializeNulls().create().toJson(o);
  }

  static boolean blank(byte[] line) {
    for (byte b : line) if (b != ' ' && b != '\t' && b != '\r') return false;
    return true;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: " + COMMAND + " MODEL | --list");
      System.exit(2);
    }
    if (args[0].equals("--list")) {
      for (Model m : MODELS.values()) System.out.println(list(m));
      return;
    }
    Model model = MODELS.get(args[0]);
    if (model == null) {
      System.err.println("no model " + args[0] + " (--list lists them)");
      System.exit(2);
    }
    String cmd = System.getenv("CONFORM_REFERENCE");
    if (cmd == null || cmd.isBlank()) {
      System.err.println("CONFORM_REFERENCE is not set: the command of the reference, such as \"conform serve --stdio\"");
      System.exit(2);
    }
    child = new ProcessBuilder(cmd.trim().split("\\s+")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    childIn = child.getOutputStream();
    childOut = new BufferedInputStream(child.getInputStream(), 1 << 16);
    out = System.out;
    InputStream in = new BufferedInputStream(System.in, 1 << 16);
    byte[] line;
    while ((line = readLine(in)) != null) {
      if (blank(line)) continue; // PROTO-FRAME-008: no request, no answer
      out.write(serve(model, line));
      out.write('\n');
      out.flush();
    }
    childIn.close();
    child.waitFor();
  }

  static byte[] serve(Model model, byte[] line) throws Exception {
    String raw = new String(line, StandardCharsets.UTF_8);
    JsonObject req;
    try {
      JsonElement e = read(raw);
      req = obj(e);
    } catch (IOException | RuntimeException e) {
      req = null;
    }
    if (req == null || string(req, "op") == null) return refRaw(line);
    current = req;
    currentLine = line;
    JsonObject a;
    try {
      a = model.fn.answer(req, raw);
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      a = new JsonObject();
      JsonObject err = new JsonObject();
      err.addProperty("kind", "internal");
      err.addProperty("message", String.valueOf(e));
      a.add("error", err);
    }
    if (a == null) return refRaw(line);
    if (!a.has("id")) {
      JsonObject b = new JsonObject();
      b.add("id", req.get("id"));
      for (Map.Entry<String, JsonElement> m : a.entrySet()) b.add(m.getKey(), m.getValue());
      a = b;
    }
    return write(a).getBytes(StandardCharsets.UTF_8);
  }
}
