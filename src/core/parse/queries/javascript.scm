; Tags for JavaScript and JSX.

(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(class_declaration name: (identifier) @name.definition.class) @definition.class
(method_definition name: (property_identifier) @name.definition.method) @definition.method
(field_definition property: (property_identifier) @name.definition.field) @definition.field

(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function_expression)])) @definition.function
(variable_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function_expression)])) @definition.function
(program [(lexical_declaration (variable_declarator name: (identifier) @name.definition.constant value: [(object) (array) (string) (number) (template_string) (call_expression) (new_expression) (member_expression) (identifier) (binary_expression) (regex) (true) (false)])) (variable_declaration (variable_declarator name: (identifier) @name.definition.constant value: [(object) (array) (string) (number) (template_string) (call_expression) (new_expression) (member_expression) (identifier) (binary_expression) (regex) (true) (false)]))] @definition.constant)

; module.exports.foo = function () {} / exports.foo = () => {} / Foo.prototype.bar = function () {}
(assignment_expression
  left: (member_expression property: (property_identifier) @name.definition.function)
  right: [(arrow_function) (function_expression)]) @definition.function
; obj = { foo() {}, bar: function () {} }
(pair key: (property_identifier) @name.definition.function value: [(arrow_function) (function_expression)]) @definition.function

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(class_heritage (identifier) @name.reference.class)

(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name))) source: (string) @import.source)
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source)
(import_statement source: (string) @import.source)
(export_statement source: (string) @import.source)
(call_expression function: (identifier) @_req arguments: (arguments (string) @import.source) (#eq? @_req "require"))
