; Tags for TypeScript and TSX (tags convention: @name.definition.*, @definition.*, @name.reference.*).

(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(function_signature name: (identifier) @name.definition.function) @definition.function
(class_declaration name: (type_identifier) @name.definition.class) @definition.class
(abstract_class_declaration name: (type_identifier) @name.definition.class) @definition.class
(interface_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(type_alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(internal_module name: (identifier) @name.definition.module) @definition.module
(module name: (identifier) @name.definition.module) @definition.module

(method_definition name: (property_identifier) @name.definition.method) @definition.method
(method_signature name: (property_identifier) @name.definition.method) @definition.method
(abstract_method_signature name: (property_identifier) @name.definition.method) @definition.method
(public_field_definition name: (property_identifier) @name.definition.field) @definition.field
(property_signature name: (property_identifier) @name.definition.field) @definition.field

; const foo = () => {} / function () {} : functions; other top-level consts are constants.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.function
    value: [(arrow_function) (function_expression)])) @definition.function
(program (lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.constant
    value: [(object) (array) (string) (number) (template_string) (call_expression) (new_expression) (as_expression) (member_expression) (identifier) (satisfies_expression) (binary_expression) (regex) (true) (false)])) @definition.constant)
(program (export_statement (lexical_declaration
  (variable_declarator
    name: (identifier) @name.definition.constant
    value: [(object) (array) (string) (number) (template_string) (call_expression) (new_expression) (as_expression) (member_expression) (identifier) (satisfies_expression) (binary_expression) (regex) (true) (false)])) @definition.constant))

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(type_annotation (type_identifier) @name.reference.type)
(generic_type name: (type_identifier) @name.reference.type)
(type_arguments (type_identifier) @name.reference.type)
(extends_clause value: (identifier) @name.reference.class)
(implements_clause (type_identifier) @name.reference.implementation)
(extends_type_clause type: (type_identifier) @name.reference.type)

(import_statement (import_clause (named_imports (import_specifier name: (identifier) @import.name))) source: (string) @import.source)
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source)
(import_statement (import_clause (namespace_import (identifier) @import.name)) source: (string) @import.source)
(import_statement source: (string) @import.source)
(export_statement source: (string) @import.source)
(call_expression function: (identifier) @_req arguments: (arguments (string) @import.source) (#eq? @_req "require"))
