; Tags for PHP (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).

(namespace_definition name: (namespace_name) @name.definition.module) @definition.module
(class_declaration name: (name) @name.definition.class) @definition.class
(interface_declaration name: (name) @name.definition.interface) @definition.interface
(trait_declaration name: (name) @name.definition.trait) @definition.trait
(enum_declaration name: (name) @name.definition.enum) @definition.enum
(enum_case name: (name) @name.definition.constant) @definition.constant

(function_definition name: (name) @name.definition.function) @definition.function
(method_declaration name: (name) @name.definition.method) @definition.method
(const_declaration (const_element (name) @name.definition.constant)) @definition.constant
(property_declaration (property_element (variable_name (name) @name.definition.field))) @definition.field

; References. `new static`/`self`/`parent` name no class.
(function_call_expression function: (name) @name.reference.call)
(function_call_expression function: (qualified_name (name) @name.reference.call .))
(member_call_expression name: (name) @name.reference.call)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(scoped_call_expression scope: (name) @name.reference.type)
(class_constant_access_expression . (name) @name.reference.type)
(object_creation_expression [(name) @name.reference.class (qualified_name (name) @name.reference.class .)])
(base_clause [(name) @name.reference.class (qualified_name (name) @name.reference.class .)])
(class_interface_clause [(name) @name.reference.implementation (qualified_name (name) @name.reference.implementation .)])
(use_declaration [(name) @name.reference.implementation (qualified_name (name) @name.reference.implementation .)])
(named_type [(name) @name.reference.type (qualified_name (name) @name.reference.type .)])
(attribute [(name) @name.reference.type (qualified_name (name) @name.reference.type .)])

; Imports: `use A\B\C;` has the source A\B\C (the class's path, which PSR-4 maps to a file) and the name C, also
; under an alias; `use A\{B, C};` brings B and C from A; require and include with a literal path (the literal part of
; `__DIR__ . '/x.php'`).
(namespace_use_clause (qualified_name (namespace_name_as_prefix) (name) @import.name) @import.source)
(namespace_use_declaration (namespace_name) @import.source (namespace_use_group (namespace_use_group_clause (namespace_name (name) @import.name))))
(require_expression [(string (string_content) @import.source) (binary_expression right: (string (string_content) @import.source))])
(require_once_expression [(string (string_content) @import.source) (binary_expression right: (string (string_content) @import.source))])
(include_expression [(string (string_content) @import.source) (binary_expression right: (string (string_content) @import.source))])
(include_once_expression [(string (string_content) @import.source) (binary_expression right: (string (string_content) @import.source))])
