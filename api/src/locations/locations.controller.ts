import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Answer, Envelope } from '../common/answer';
import { KENYA_COUNTIES } from '@spc/shared-contracts/locations';
import { Public } from '../common/access.decorators';

class SubCountyDto {
  @ApiProperty({ example: 'Ruiru' }) name!: string;
  @ApiProperty({ type: [String], example: ['Biashara', 'Gatongora'] }) wards!: string[];
}

class CountyDto {
  @ApiProperty({ example: '022' }) code!: string;
  @ApiProperty({ example: 'Kiambu' }) name!: string;
  @ApiProperty({ type: [SubCountyDto] }) sub_counties!: SubCountyDto[];
}

class CountiesData {
  @ApiProperty({ type: [CountyDto] }) counties!: CountyDto[];
}

class CountiesResponseDto extends Envelope(CountiesData) {}

@ApiTags('locations')
@Controller('locations')
export class LocationsController {
  @Get('counties')
  @Public()
  @Header('Cache-Control', 'public, max-age=86400')
  @ApiOperation({ summary: "Kenya's 47 counties with their sub-counties and wards" })
  @Answer('Counties retrieved', CountiesResponseDto)
  counties(): CountiesData {
    return { counties: KENYA_COUNTIES as CountyDto[] };
  }
}
