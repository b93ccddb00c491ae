; Tags for TypeScript and TSX (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).

; Functions: declarations, overloads and `declare function` (signatures); `export default function f` is a
; function_declaration inside the export. A named function expression is a definition where nothing else names
; it: passed as an argument (`setTimeout(function tick() {})`), assigned, or returned.
(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(function_signature name: (identifier) @name.definition.function) @definition.function
(arguments (function_expression name: (identifier) @name.definition.function) @definition.function)
(assignment_expression right: (function_expression name: (identifier) @name.definition.function) @definition.function)
(return_statement (function_expression name: (identifier) @name.definition.function) @definition.function)

(class_declaration name: (type_identifier) @name.definition.class) @definition.class
(abstract_class_declaration name: (type_identifier) @name.definition.class) @definition.class
(interface_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(type_alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(enum_body (property_identifier) @name.definition.constant) @definition.constant
(enum_body (enum_assignment name: (property_identifier) @name.definition.constant) @definition.constant)
(internal_module name: (identifier) @name.definition.module) @definition.module
(module name: (identifier) @name.definition.module) @definition.module

; Members. A field holding a function is a method (listed first: the first kind captured for a name wins).
(method_definition name: [(property_identifier) (private_property_identifier)] @name.definition.method) @definition.method
; Signatures are members of interfaces and of object types that a type alias names, not of inline parameter types.
(interface_body (method_signature name: (property_identifier) @name.definition.method) @definition.method)
(type_alias_declaration value: (object_type (method_signature name: (property_identifier) @name.definition.method) @definition.method))
(abstract_method_signature name: (property_identifier) @name.definition.method) @definition.method
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name.definition.method
  value: [(arrow_function) (function_expression)]) @definition.method
(public_field_definition name: [(property_identifier) (private_property_identifier)] @name.definition.field) @definition.field
(interface_body (property_signature name: (property_identifier) @name.definition.field) @definition.field)
(type_alias_declaration value: (object_type (property_signature name: (property_identifier) @name.definition.field) @definition.field))

; const foo = () => {} / function () {}: functions, at any depth.
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
; `declare const X: T`, at the top level or exported.
(ambient_declaration [
  (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant))
  (variable_declaration (variable_declarator name: (identifier) @name.definition.constant))] @definition.constant)

; exports.foo = () => {} / Foo.prototype.bar = function () {}: the property names an anonymous function.
(assignment_expression
  left: (member_expression property: (property_identifier) @name.definition.function)
  right: [(arrow_function) (function_expression !name)]) @definition.function
; obj = { foo: () => {} }; `{ foo() {} }` is a method_definition above.
(pair key: (property_identifier) @name.definition.function value: [(arrow_function) (function_expression)]) @definition.function

; References: calls, instantiation, inheritance, and type uses in every position that uses (not declares) a type.
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(new_expression constructor: (member_expression property: (property_identifier) @name.reference.class))
(extends_clause value: (identifier) @name.reference.class)
(extends_clause value: (member_expression property: (property_identifier) @name.reference.class))
(implements_clause (type_identifier) @name.reference.implementation)
(implements_clause (generic_type name: (type_identifier) @name.reference.implementation))
(implements_clause (nested_type_identifier name: (type_identifier) @name.reference.implementation))
(extends_type_clause type: (type_identifier) @name.reference.implementation)
(extends_type_clause type: (generic_type name: (type_identifier) @name.reference.implementation))

(type_annotation (type_identifier) @name.reference.type)
(generic_type name: (type_identifier) @name.reference.type)
(nested_type_identifier name: (type_identifier) @name.reference.type)
(type_arguments (type_identifier) @name.reference.type)
(array_type (type_identifier) @name.reference.type)
(union_type (type_identifier) @name.reference.type)
(intersection_type (type_identifier) @name.reference.type)
(tuple_type (type_identifier) @name.reference.type)
(parenthesized_type (type_identifier) @name.reference.type)
(readonly_type (type_identifier) @name.reference.type)
(optional_type (type_identifier) @name.reference.type)
(rest_type (type_identifier) @name.reference.type)
(index_type_query (type_identifier) @name.reference.type)
(lookup_type (type_identifier) @name.reference.type)
(conditional_type (type_identifier) @name.reference.type)
(constraint (type_identifier) @name.reference.type)
(default_type (type_identifier) @name.reference.type)
(type_predicate type: (type_identifier) @name.reference.type)
(function_type return_type: (type_identifier) @name.reference.type)
(mapped_type_clause type: (type_identifier) @name.reference.type)
(type_alias_declaration value: (type_identifier) @name.reference.type)
(as_expression (type_identifier) @name.reference.type)
(satisfies_expression (type_identifier) @name.reference.type)

; Imports and re-exports.
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name))) source: (string) @import.source)
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source)
(import_statement (import_clause (namespace_import (identifier) @import.name)) source: (string) @import.source)
(import_statement source: (string) @import.source)
(export_statement (export_clause (export_specifier name: (identifier) @import.name)) source: (string) @import.source)
(export_statement source: (string) @import.source)
(import_require_clause (identifier) @import.name source: (string) @import.source)
(call_expression function: (identifier) @_req arguments: (arguments (string) @import.source) (#eq? @_req "require"))
(variable_declarator
  name: [(identifier) @import.name (object_pattern (shorthand_property_identifier_pattern) @import.name)]
  value: (call_expression function: (identifier) @_req arguments: (arguments (string) @import.source))
  (#eq? @_req "require"))
(call_expression function: (import) arguments: (arguments (string) @import.source))
