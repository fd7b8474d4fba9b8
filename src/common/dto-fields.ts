/**
 * Field decorators for request DTOs: each one states the JSON type Flipt accepts for a field (including protobuf
 * JSON's leniencies: quoted numbers, enum names or numbers) and documents it for Swagger in the same line.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, Min, ValidateNested,
  ValidationArguments, registerDecorator,
} from 'class-validator';
import { INT32_MAX, INT32_MIN } from './validation';

interface FieldOptions {
  description?: string;
  example?: unknown;
  required?: boolean;
}

function doc(type: unknown, o: FieldOptions, extra: Record<string, unknown> = {}) {
  const options = { type, description: o.description, example: o.example, ...extra } as Record<string, unknown>;
  return o.required ? ApiProperty(options) : ApiPropertyOptional(options);
}

/**
 * Decimal spellings only, as Go's strconv reads a query value or a quoted protobuf number: `Number()` alone would
 * also take `0x10`, `0b1`, `Infinity` and surrounding whitespace.
 */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function numeric(value: unknown): unknown {
  if (typeof value === 'string' && DECIMAL.test(value)) return Number(value);
  return value;
}

export const StringField = (o: FieldOptions = {}) =>
  applyDecorators(doc(String, o), IsOptional(), IsString({ message: '$property must be a string' }));

export const IntField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc('integer', o, { format: 'int32' }),
    IsOptional(),
    Transform(({ value }) => numeric(value)),
    IsInt({ message: '$property must be an integer' }),
    Min(INT32_MIN, { message: '$property is out of range' }),
    Max(INT32_MAX, { message: '$property is out of range' }),
  );

export const NumberField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc(Number, o),
    IsOptional(),
    Transform(({ value }) => numeric(value)),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: '$property must be a number' }),
  );

export const BoolField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc(Boolean, o),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: '$property must be a boolean' }),
  );

/** Protobuf enums accept their name or their number; the DTO always holds the number. */
export const EnumField = (names: Record<string, number>, o: FieldOptions = {}) =>
  applyDecorators(
    doc(String, o, { enum: Object.keys(names) }),
    IsOptional(),
    Transform(({ value }) => (typeof value === 'string' && value in names ? names[value] : numeric(value))),
    IsIn(Object.values(names), { message: `$property must be one of ${Object.keys(names).join(', ')}` }),
  );

export const StringListField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc([String], o),
    IsOptional(),
    // `each` alone would check a lone string as if it were the list's only item.
    IsArray({ message: '$property must be a list of strings' }),
    IsString({ each: true, message: '$property must be a list of strings' }),
  );

export const NestedField = (type: () => new () => object, o: FieldOptions = {}) =>
  applyDecorators(doc(type, o), IsOptional(), IsObject({ message: '$property must be an object' }), ValidateNested(), Type(type));

export const NestedListField = (type: () => new () => object, o: FieldOptions = {}) =>
  applyDecorators(
    doc([type()], o),
    IsOptional(),
    IsArray({ message: '$property must be a list of objects' }),
    ValidateNested({ each: true, message: '$property must be a list of objects' }),
    Type(type),
  );

/** A JSON object whose values are all strings (evaluation context, token metadata). */
export const StringMapField = (o: FieldOptions = {}) =>
  applyDecorators(
    doc('object', o, { additionalProperties: { type: 'string' } }),
    IsOptional(),
    IsStringMap(),
  );

/** Any JSON object (flag metadata). */
export const ObjectField = (o: FieldOptions = {}) =>
  applyDecorators(doc('object', o, { additionalProperties: true }), IsOptional(), IsObject({ message: '$property must be a JSON object' }));

function IsStringMap() {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (v: unknown) =>
          typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string'),
        defaultMessage: (a?: ValidationArguments) => `${a?.property} must be an object with string values`,
      },
    });
}
