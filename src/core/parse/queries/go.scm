; Tags for Go (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; Methods name their receiver type with @container, so `func (s *Server) Listen` becomes `Server.Listen`.

(function_declaration name: (identifier) @name.definition.function) @definition.function

(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @container
    (pointer_type (type_identifier) @container)
    (generic_type type: (type_identifier) @container)
    (pointer_type (generic_type type: (type_identifier) @container))]))
  name: (field_identifier) @name.definition.method) @definition.method

; Type specs, single (`type X struct{}`) or grouped (`type ( X struct{}; Y int )`); the spec is the definition so a
; grouped block yields one symbol per type with its own lines.
(type_spec name: (type_identifier) @name.definition.struct type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name.definition.type
  type: [(type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type) (map_type)
         (channel_type) (function_type)]) @definition.type
(type_alias name: (type_identifier) @name.definition.type) @definition.type

(method_elem name: (field_identifier) @name.definition.method) @definition.method
(field_declaration name: (field_identifier) @name.definition.field) @definition.field

; Package-level constants and variables (single or grouped). Locals are not symbols.
(const_spec name: (identifier) @name.definition.constant) @definition.constant
(source_file (var_declaration (var_spec name: (identifier) @name.definition.variable) @definition.variable)
  (#not-eq? @name.definition.variable "_"))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name.definition.variable) @definition.variable))
  (#not-eq? @name.definition.variable "_"))

; References. Every type identifier is a type use; extract.ts drops the one that declares the type.
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (selector_expression field: (field_identifier) @name.reference.call))
; Predeclared types are left out: "who uses string" is not a question worth an index row.
((type_identifier) @name.reference.type
  (#not-match? @name.reference.type "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))
; `Server{...}` and `&pkg.Server{...}` instantiate the type.
(composite_literal type: (type_identifier) @name.reference.class)
(composite_literal type: (qualified_type name: (type_identifier) @name.reference.class))
(composite_literal type: (generic_type type: (type_identifier) @name.reference.class))
; Embedding: a struct embeds (inherits) a type, an interface embeds (extends) another interface.
(field_declaration !name type: (type_identifier) @name.reference.class)
(field_declaration !name type: (pointer_type (type_identifier) @name.reference.class))
(field_declaration !name type: (qualified_type name: (type_identifier) @name.reference.class))
(interface_type (type_elem (type_identifier) @name.reference.implementation))
(interface_type (type_elem (qualified_type name: (type_identifier) @name.reference.implementation)))

(import_spec path: (_) @import.source)
(import_spec name: (_) @import.name path: (_) @import.source)
