; Tags for JavaScript and JSX (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).

(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
; A named function expression is a definition where nothing else names it: passed as an argument
; (`setTimeout(function tick() {})`), assigned (`module.exports = function createApp() {}`), or returned.
(arguments (function_expression name: (identifier) @name.definition.function) @definition.function)
(assignment_expression right: (function_expression name: (identifier) @name.definition.function) @definition.function)
(return_statement (function_expression name: (identifier) @name.definition.function) @definition.function)

(class_declaration name: (identifier) @name.definition.class) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier)] @name.definition.method) @definition.method
; A field holding a function is a method (listed first: extract.ts lets method win for the same name).
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name.definition.method
  value: [(arrow_function) (function_expression)]) @definition.method
(field_definition property: [(property_identifier) (private_property_identifier)] @name.definition.field) @definition.field

(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; Module-level bindings are constants (a binding holding a function is a function: extract.ts ranks it higher).
(program [
  (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant))
  (variable_declaration (variable_declarator name: (identifier) @name.definition.constant))] @definition.constant)
(program (export_statement declaration: [
  (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant))
  (variable_declaration (variable_declarator name: (identifier) @name.definition.constant))] @definition.constant))

; exports.foo = () => {} / module.exports.foo = function () {} / Foo.prototype.bar = function () {}: the property
; names an anonymous function (a named one is named by its own name, above).
(assignment_expression
  left: (member_expression property: (property_identifier) @name.definition.function)
  right: [(arrow_function) (function_expression !name)]) @definition.function
; Foo.prototype.bar = function () {}: a method of Foo, named by the property or by the function's own name.
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @container property: (property_identifier) @_proto)
    property: (property_identifier) @name.definition.method)
  right: [(arrow_function) (function_expression !name)]
  (#eq? @_proto "prototype")) @definition.method
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @container property: (property_identifier) @_proto))
  right: (function_expression name: (identifier) @name.definition.method) @definition.method
  (#eq? @_proto "prototype"))
; obj = { foo() {}, bar: function () {} }
(pair key: (property_identifier) @name.definition.function value: [(arrow_function) (function_expression)]) @definition.function

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(new_expression constructor: (member_expression property: (property_identifier) @name.reference.class))
(class_heritage (identifier) @name.reference.class)
(class_heritage (member_expression property: (property_identifier) @name.reference.class))


; Imports and re-exports; CommonJS `require` too, with the names it binds.
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name))) source: (string) @import.source)
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source)
(import_statement (import_clause (namespace_import (identifier) @import.name)) source: (string) @import.source)
(import_statement source: (string) @import.source)
(export_statement (export_clause (export_specifier name: (identifier) @import.name)) source: (string) @import.source)
(export_statement source: (string) @import.source)
(call_expression function: (identifier) @_req arguments: (arguments (string) @import.source) (#eq? @_req "require"))
(variable_declarator
  name: [(identifier) @import.name (object_pattern (shorthand_property_identifier_pattern) @import.name)]
  value: (call_expression function: (identifier) @_req arguments: (arguments (string) @import.source))
  (#eq? @_req "require"))
(call_expression function: (import) arguments: (arguments (string) @import.source))
