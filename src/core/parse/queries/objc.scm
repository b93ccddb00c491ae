; Tags for Objective-C (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; The C layer (functions, structs, typedefs, macros, globals) is tagged as in c.scm. A method is named by the
; first keyword of its selector (`initWithCapacity:` is `initWithCapacity`); methods in an @implementation or a
; category name their class with @container, so they become `Store.sharedStore`.

(class_interface !category . (identifier) @name.definition.class) @definition.class
(protocol_declaration . (identifier) @name.definition.protocol) @definition.protocol
(method_declaration (method_type) . (identifier) @name.definition.method) @definition.method
(method_declaration . (identifier) @name.definition.method) @definition.method
(class_interface . (identifier) @container category: (_)
  (method_declaration (method_type) . (identifier) @name.definition.method) @definition.method)
(class_implementation . (identifier) @container
  (implementation_definition (method_definition (method_type) . (identifier) @name.definition.method) @definition.method))
(class_implementation . (identifier) @container
  (implementation_definition (method_definition . (identifier) @name.definition.method) @definition.method))
(property_declaration (struct_declaration (struct_declarator [
  (identifier) @name.definition.field
  (pointer_declarator declarator: (identifier) @name.definition.field)]))) @definition.field

; Functions, and prototypes at file scope (a header's API).
(function_definition declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))) @definition.function
(translation_unit (declaration declarator: (function_declarator declarator: (identifier) @name.definition.function)) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function))) @definition.function)
(translation_unit (declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name.definition.function)))) @definition.function)

; Types. Only specifiers with a body define; `struct queue *q` uses. A typedef'd struct spans the typedef, so the
; struct and its typedef name are siblings rather than one inside the other.
(struct_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name.definition.struct body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name.definition.enum body: (_)) @definition.enum
(type_definition type: (struct_specifier name: (type_identifier) @name.definition.struct body: (_))) @definition.struct
(type_definition type: (union_specifier name: (type_identifier) @name.definition.struct body: (_))) @definition.struct
(type_definition type: (enum_specifier name: (type_identifier) @name.definition.enum body: (_))) @definition.enum
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name.definition.struct) @definition.struct
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name.definition.enum) @definition.enum
(type_definition declarator: (type_identifier) @name.definition.type) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name.definition.type)) @definition.type
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name.definition.type)))) @definition.type
(enumerator name: (identifier) @name.definition.constant) @definition.constant
(field_declaration declarator: [
  (field_identifier) @name.definition.field
  (pointer_declarator declarator: (field_identifier) @name.definition.field)
  (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name.definition.field))
  (array_declarator declarator: (field_identifier) @name.definition.field)]) @definition.field

; Macros: object-like ones with a value are constants (header guards have none), function-like ones are macros.
(preproc_def name: (identifier) @name.definition.constant value: (_)) @definition.constant
(preproc_function_def name: (identifier) @name.definition.macro) @definition.macro

; File-scope variables; `const` ones are constants (extract.ts ranks constant above variable). The qualifier is
; matched in the text: a (type_qualifier) child in the pattern makes the query compile far slower.
(translation_unit (declaration declarator: [
  (identifier) @name.definition.variable
  (init_declarator declarator: (identifier) @name.definition.variable)
  (pointer_declarator declarator: (identifier) @name.definition.variable)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.variable))
  (array_declarator declarator: (identifier) @name.definition.variable)
  (init_declarator declarator: (array_declarator declarator: (identifier) @name.definition.variable))]) @definition.variable)
(translation_unit (declaration declarator: [
  (identifier) @name.definition.constant
  (init_declarator declarator: (identifier) @name.definition.constant)
  (pointer_declarator declarator: (identifier) @name.definition.constant)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @name.definition.constant))
  (array_declarator declarator: (identifier) @name.definition.constant)
  (init_declarator declarator: (array_declarator declarator: (identifier) @name.definition.constant))]) @definition.constant
  (#match? @definition.constant "^[^=(]*\\bconst\\b"))

; References: messages, C calls, types; `[X alloc]`/`[X new]` instantiate X.
(message_expression method: (identifier) @name.reference.call)
(message_expression receiver: (identifier) @name.reference.class method: (identifier) @_m (#match? @_m "^(alloc|new)$"))
(message_expression receiver: (identifier) @name.reference.type (#match? @name.reference.type "^[A-Z]"))
(call_expression function: (identifier) @name.reference.call)
(type_identifier) @name.reference.type
(class_interface superclass: (identifier) @name.reference.class)
(class_interface (parameterized_arguments (type_name (type_identifier) @name.reference.implementation)))
(protocol_reference_list (identifier) @name.reference.implementation)

(preproc_include path: (_) @import.source)
(module_import path: (_) @import.source)
